import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { type ReactNode, useEffect, useRef, useState } from 'react';

import type { SecondFactorMethod } from '../../../../shared';
import { onSecondFactorRequired } from '../../api/api-client';
import { secondFactorStatus } from '../../api/second-factor';
import { lazyPage } from '../../layout/lazy-page';
import { SECOND_FACTOR_TEXT } from './strings';

/** The check's code (passkeys included) arrives only when a sensitive action needs it. */
const SecondFactorCheck = lazyPage(() =>
  import('./second-factor-check').then((module) => module.SecondFactorCheck),
);

/**
 * Asks for the second factor when a sensitive action needs it again (the server's
 * `SECOND_FACTOR_REQUIRED`): the API client waits for this dialog, then sends the action again.
 */
export function StepUpProvider({ children }: { readonly children: ReactNode }) {
  const [methods, setMethods] = useState<readonly SecondFactorMethod[] | null>(null);
  const pending = useRef<((passed: boolean) => void) | null>(null);

  useEffect(
    () =>
      onSecondFactorRequired(async () => {
        const status = await secondFactorStatus();
        const available: SecondFactorMethod[] = [];
        if (status.passkeys.length > 0) available.push('passkey');
        if (status.totp) available.push('totp');
        if (status.recoveryCodesLeft > 0) available.push('recovery');
        return new Promise<boolean>((resolve) => {
          pending.current = resolve;
          setMethods(available);
        });
      }),
    [],
  );

  const finish = (passed: boolean) => {
    pending.current?.(passed);
    pending.current = null;
    setMethods(null);
  };

  return (
    <>
      {children}
      {/* Mounted only while asking: a hidden modal would still sit in the page for every screen. */}
      {methods ? (
        <Modal
          visible
          onDismiss={() => finish(false)}
          header={SECOND_FACTOR_TEXT.stepUpTitle}
          closeAriaLabel={SECOND_FACTOR_TEXT.close}
        >
          <SpaceBetween size="m">
            <Box>{SECOND_FACTOR_TEXT.stepUpDescription}</Box>
            <SecondFactorCheck
              methods={methods}
              onVerified={() => finish(true)}
              secondaryAction={
                <Button variant="link" formAction="none" onClick={() => finish(false)}>
                  {SECOND_FACTOR_TEXT.cancel}
                </Button>
              }
            />
          </SpaceBetween>
        </Modal>
      ) : null}
    </>
  );
}
