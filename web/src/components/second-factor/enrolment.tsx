import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tabs from '@cloudscape-design/components/tabs';
import { type FormEvent, useState } from 'react';

import { type EnrolmentReply, MESSAGES, type TotpEnrolment } from '../../../../shared';
import { ApiError } from '../../api/api-errors';
import { confirmTotpEnrolment, startTotpEnrolment } from '../../api/second-factor';
import { passkeysSupported, registerPasskey } from './passkeys';
import { SECOND_FACTOR_TEXT } from './strings';

const failureOf = (error: unknown) => (error instanceof ApiError ? error.message : MESSAGES.request.internal);

interface EnrolProps {
  /** A pending sign-in's token, else the stored session's. */
  readonly token?: string;
  readonly onEnrolled: (reply: EnrolmentReply) => void;
}

/** Registers a passkey: one button, the browser does the rest. */
export function PasskeyEnrolment({ token, onEnrolled }: EnrolProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (!passkeysSupported()) return <Alert type="info">{SECOND_FACTOR_TEXT.passkeyUnsupported}</Alert>;
  return (
    <SpaceBetween size="m">
      <Box>{SECOND_FACTOR_TEXT.passkeyExplanation}</Box>
      {error ? <Alert type="error">{error}</Alert> : null}
      <Button
        variant="primary"
        iconName="key"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            onEnrolled(await registerPasskey(token));
          } catch (failure) {
            setError(failureOf(failure));
            setBusy(false);
          }
        }}
      >
        {busy ? SECOND_FACTOR_TEXT.registeringPasskey : SECOND_FACTOR_TEXT.registerPasskey}
      </Button>
    </SpaceBetween>
  );
}

/** TOTP enrolment: a QR code drawn by the server (SVG, no outside service), then a first code. */
export function TotpEnrolmentForm({ token, onEnrolled }: EnrolProps) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setEnrolment(await startTotpEnrolment(token));
    } catch (failure) {
      setError(failureOf(failure));
    }
    setBusy(false);
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      onEnrolled(await confirmTotpEnrolment(code, token));
    } catch (failure) {
      setError(failureOf(failure));
      setBusy(false);
    }
  };

  if (!enrolment) {
    return (
      <SpaceBetween size="m">
        {error ? <Alert type="error">{error}</Alert> : null}
        <Button variant="primary" loading={busy} onClick={() => void start()}>
          {SECOND_FACTOR_TEXT.showQrCode}
        </Button>
      </SpaceBetween>
    );
  }
  return (
    <form onSubmit={(event) => void confirm(event)} noValidate>
      <Form
        errorText={error}
        actions={
          <Button variant="primary" formAction="submit" loading={busy}>
            {SECOND_FACTOR_TEXT.confirm}
          </Button>
        }
      >
        <SpaceBetween size="m">
          <Box>{SECOND_FACTOR_TEXT.scanInstructions}</Box>
          <img
            src={enrolment.qrCodeDataUrl}
            alt={SECOND_FACTOR_TEXT.qrCodeAlt}
            width={200}
            height={200}
            style={{ background: '#fff', borderRadius: 8 }}
          />
          <SpaceBetween size="xxs">
            <Box variant="small">{SECOND_FACTOR_TEXT.manualSecret}</Box>
            <Box variant="code" data-testid="totp-secret">
              {enrolment.secret}
            </Box>
          </SpaceBetween>
          <FormField label={SECOND_FACTOR_TEXT.codeLabel} stretch>
            <Input
              value={code}
              onChange={({ detail }) => setCode(detail.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              spellcheck={false}
              disableBrowserAutocorrect
            />
          </FormField>
        </SpaceBetween>
      </Form>
    </form>
  );
}

/** The choice of a first factor: a passkey, or an authenticator app. */
export function FactorEnrolment({ token, onEnrolled }: EnrolProps) {
  const [tab, setTab] = useState(passkeysSupported() ? 'passkey' : 'totp');
  return (
    <Tabs
      activeTabId={tab}
      onChange={({ detail }) => setTab(detail.activeTabId)}
      tabs={[
        {
          id: 'passkey',
          label: SECOND_FACTOR_TEXT.passkeyTab,
          content: <PasskeyEnrolment token={token} onEnrolled={onEnrolled} />,
        },
        {
          id: 'totp',
          label: SECOND_FACTOR_TEXT.totpTab,
          content: <TotpEnrolmentForm token={token} onEnrolled={onEnrolled} />,
        },
      ]}
    />
  );
}
