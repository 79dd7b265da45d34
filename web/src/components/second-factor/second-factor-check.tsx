import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { type FormEvent, useState } from 'react';

import { MESSAGES, type SecondFactorMethod, type VerifySecondFactorReply } from '../../../../shared';
import { ApiError } from '../../api/api-errors';
import { verifySecondFactor } from '../../api/second-factor';
import { passkeysSupported, verifyWithPasskey } from './passkeys';
import { SECOND_FACTOR_TEXT } from './strings';

interface SecondFactorCheckProps {
  /** The licence's methods (passkey, totp, recovery). */
  readonly methods: readonly SecondFactorMethod[];
  /** The session to check it for: a pending sign-in's token, else the stored session's. */
  readonly token?: string;
  readonly onVerified: (reply: VerifySecondFactorReply) => void;
  /** Extra actions beside the submit button (back to the key, cancel). */
  readonly secondaryAction?: React.ReactNode;
}

/** The French text of a failed check ('Code invalide', 'Trop de tentatives…'). */
const failureOf = (error: unknown) => (error instanceof ApiError ? error.message : MESSAGES.request.internal);

/**
 * The second factor check: the passkey first when the licence has one, else (or as well) the
 * authenticator-app code, and a recovery code as the last resort.
 */
export function SecondFactorCheck({ methods, token, onVerified, secondaryAction }: SecondFactorCheckProps) {
  const hasPasskey = methods.includes('passkey') && passkeysSupported();
  const [mode, setMode] = useState<'totp' | 'recovery'>(methods.includes('totp') ? 'totp' : 'recovery');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'passkey' | 'code' | null>(null);
  const [error, setError] = useState<string>();

  const run = async (kind: 'passkey' | 'code', check: () => Promise<VerifySecondFactorReply>) => {
    if (busy) return;
    setBusy(kind);
    setError(undefined);
    try {
      const reply = await check();
      onVerified(reply);
    } catch (failure) {
      setError(failureOf(failure));
      setBusy(null);
    }
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(MESSAGES.secondFactor.codeRequired);
      return;
    }
    void run('code', () => verifySecondFactor({ method: mode, code }, token));
  };

  const codeMethods = methods.filter((method) => method !== 'passkey');
  return (
    <SpaceBetween size="l">
      {hasPasskey ? (
        <Button
          variant={codeMethods.length > 0 ? 'normal' : 'primary'}
          iconName="key"
          loading={busy === 'passkey'}
          onClick={() => void run('passkey', () => verifyWithPasskey(token))}
        >
          {busy === 'passkey' ? SECOND_FACTOR_TEXT.passkeyBusy : SECOND_FACTOR_TEXT.usePasskey}
        </Button>
      ) : null}
      {codeMethods.length > 0 ? (
        <form onSubmit={submitCode} noValidate>
          <Form
            errorText={error}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                {secondaryAction}
                <Button variant="primary" formAction="submit" loading={busy === 'code'}>
                  {busy === 'code' ? SECOND_FACTOR_TEXT.verifying : SECOND_FACTOR_TEXT.verify}
                </Button>
              </SpaceBetween>
            }
          >
            <SpaceBetween size="s">
              <FormField
                label={mode === 'totp' ? SECOND_FACTOR_TEXT.codeLabel : SECOND_FACTOR_TEXT.recoveryLabel}
                description={mode === 'totp' ? SECOND_FACTOR_TEXT.codeHint : SECOND_FACTOR_TEXT.recoveryHint}
                stretch
              >
                <Input
                  value={code}
                  onChange={({ detail }) => setCode(detail.value)}
                  inputMode={mode === 'totp' ? 'numeric' : 'text'}
                  autoComplete={mode === 'totp' ? 'one-time-code' : 'off'}
                  spellcheck={false}
                  disableBrowserAutocorrect
                  autoFocus={!hasPasskey}
                />
              </FormField>
              {methods.includes('totp') && methods.includes('recovery') ? (
                <Button
                  variant="inline-link"
                  formAction="none"
                  onClick={() => {
                    setMode(mode === 'totp' ? 'recovery' : 'totp');
                    setCode('');
                    setError(undefined);
                  }}
                >
                  {mode === 'totp' ? SECOND_FACTOR_TEXT.useRecovery : SECOND_FACTOR_TEXT.useCode}
                </Button>
              ) : null}
            </SpaceBetween>
          </Form>
        </form>
      ) : (
        <SpaceBetween size="s">
          {error ? <Box color="text-status-error">{error}</Box> : null}
          {secondaryAction}
        </SpaceBetween>
      )}
    </SpaceBetween>
  );
}
