import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { type EnrolmentReply, MESSAGES } from '../../../../shared';
import { ApiError } from '../../api/api-errors';
import { resetSecondFactor, secondFactorStatusQuery } from '../../api/second-factor';
import { useNotifications } from '../../notifications/notifications-context';
import { PasskeyEnrolment, TotpEnrolmentForm } from './enrolment';
import { RecoveryCodes } from './recovery-codes';
import { RememberedBrowsers } from './remembered-browsers';
import { SECOND_FACTOR_TEXT } from './strings';

const requiredText = (required: boolean) =>
  required ? SECOND_FACTOR_TEXT.required : SECOND_FACTOR_TEXT.optional;

/**
 * A value such as 'Non (recommandée)' that may break before its parenthesis only: a narrow column
 * (390 px) otherwise breaks the word itself and leaves ')' alone on its line.
 */
function KeptTogether({ text }: { readonly text: string }) {
  const at = text.indexOf(' (');
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at + 1)}
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(at + 1)}</span>
    </>
  );
}

/**
 * The licence's second factor on its settings page: its state, a passkey to add, an authenticator
 * app to set up (or replace), and the recovery codes of a first enrolment, shown once.
 */
export function SecuritySettings() {
  const notifications = useNotifications();
  const status = useQuery(secondFactorStatusQuery);
  const [dialog, setDialog] = useState<'passkey' | 'totp' | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const data = status.data;

  const enrolled = (message: string) => (reply: EnrolmentReply) => {
    setDialog(null);
    notifications.success(message);
    if (reply.recoveryCodes.length > 0) setRecoveryCodes(reply.recoveryCodes);
    void status.refetch();
  };

  const methods = data
    ? [
        ...(data.passkeys.length > 0 ? [SECOND_FACTOR_TEXT.passkeysCount(data.passkeys.length)] : []),
        ...(data.totp ? [SECOND_FACTOR_TEXT.totpMethod] : []),
      ].join(', ') || SECOND_FACTOR_TEXT.noMethod
    : '…';

  return (
    <Container
      header={
        <Header
          variant="h2"
          description={SECOND_FACTOR_TEXT.settingsDescription}
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button iconName="key" disabled={!data} onClick={() => setDialog('passkey')}>
                {SECOND_FACTOR_TEXT.addPasskey}
              </Button>
              <Button disabled={!data} onClick={() => setDialog('totp')}>
                {data?.totp ? SECOND_FACTOR_TEXT.replaceTotp : SECOND_FACTOR_TEXT.setUpTotp}
              </Button>
            </SpaceBetween>
          }
        >
          {SECOND_FACTOR_TEXT.settingsTitle}
        </Header>
      }
    >
      <SpaceBetween size="l">
        {status.error ? <Alert type="error">{SECOND_FACTOR_TEXT.loadFailed}</Alert> : null}
        {recoveryCodes.length > 0 ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes([])} />
        ) : (
          <KeyValuePairs
            columns={4}
            items={[
              {
                label: SECOND_FACTOR_TEXT.statusLabel,
                value: data ? (
                  <StatusIndicator type={data.enrolled ? 'success' : 'stopped'}>
                    {data.enrolled ? SECOND_FACTOR_TEXT.enabled : SECOND_FACTOR_TEXT.disabled}
                  </StatusIndicator>
                ) : (
                  '…'
                ),
              },
              {
                label: SECOND_FACTOR_TEXT.requiredLabel,
                value: data ? <KeptTogether text={requiredText(data.required)} /> : '…',
              },
              { label: SECOND_FACTOR_TEXT.methodsLabel, value: methods },
              {
                label: SECOND_FACTOR_TEXT.recoveryLeftLabel,
                value: data ? String(data.recoveryCodesLeft) : '…',
              },
            ]}
          />
        )}
        {data?.enrolled ? <RememberedBrowsers /> : null}
      </SpaceBetween>
      {/* Mounted only while open: a hidden modal would still sit in the page. */}
      {dialog ? (
        <Modal
          visible
          onDismiss={() => setDialog(null)}
          header={dialog === 'passkey' ? SECOND_FACTOR_TEXT.addPasskey : SECOND_FACTOR_TEXT.totpDialogTitle}
          closeAriaLabel={SECOND_FACTOR_TEXT.close}
        >
          {dialog === 'passkey' ? (
            <PasskeyEnrolment onEnrolled={enrolled(SECOND_FACTOR_TEXT.passkeyAdded)} />
          ) : (
            <TotpEnrolmentForm onEnrolled={enrolled(SECOND_FACTOR_TEXT.totpEnabled)} />
          )}
        </Modal>
      ) : null}
    </Container>
  );
}

/** An admin resets another licence's second factor (audited; asks for his own factor again if stale). */
export function ResetSecondFactor() {
  const notifications = useNotifications();
  const [licenseKey, setLicenseKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await resetSecondFactor(licenseKey);
      notifications.success(SECOND_FACTOR_TEXT.resetDone);
      setLicenseKey('');
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : MESSAGES.request.internal);
    }
    setBusy(false);
  };

  return (
    <Container header={<Header variant="h2">{SECOND_FACTOR_TEXT.resetTitle}</Header>}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Form
          errorText={error}
          actions={
            <Button formAction="submit" loading={busy}>
              {SECOND_FACTOR_TEXT.reset}
            </Button>
          }
        >
          <SpaceBetween size="m">
            <Box>{SECOND_FACTOR_TEXT.resetDescription}</Box>
            <FormField label={SECOND_FACTOR_TEXT.resetLicenseKey} stretch>
              <Input
                value={licenseKey}
                onChange={({ detail }) => setLicenseKey(detail.value)}
                autoComplete="off"
                spellcheck={false}
                disableBrowserAutocorrect
              />
            </FormField>
          </SpaceBetween>
        </Form>
      </form>
    </Container>
  );
}
