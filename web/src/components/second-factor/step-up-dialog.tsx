import { type ReactNode, useEffect, useRef, useState } from 'react';

import type { SecondFactorMethod } from '../../../../shared';
import { onSecondFactorRequired } from '../../api/api-client';
import { lazyPage } from '../../layout/lazy-page';

/**
 * The dialog's code (its modal, the check, passkeys included) arrives only when a sensitive action
 * needs it: the provider sits in /login's entry, where no action needs it.
 */
const StepUpModal = lazyPage(() => import('./step-up-modal').then((module) => module.StepUpModal));

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
        // The dialog's code is fetched with the status, so that it opens drawn, not 'Chargement…'.
        const [{ secondFactorStatus }] = await Promise.all([
          import('../../api/second-factor'),
          StepUpModal.preload(),
        ]);
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
      {methods ? <StepUpModal methods={methods} onFinished={finish} /> : null}
    </>
  );
}
