import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import type { VerifyLicenseReply } from '../../../../shared';
import { type PendingSignIn, useAuth } from '../../auth/auth-context';
import { FactorEnrolment } from '../../components/second-factor/enrolment';
import { RecoveryCodes } from '../../components/second-factor/recovery-codes';
import { SecondFactorCheck } from '../../components/second-factor/second-factor-check';
import { SECOND_FACTOR_TEXT } from '../../components/second-factor/strings';

/**
 * The second step of /login ('Vérification en deux étapes'): the licence's factor, or, for an
 * admin licence without one, its enrolment and the recovery codes shown once before entering.
 */
export function SecondFactorStep({
  pending,
  onBack,
}: {
  readonly pending: PendingSignIn;
  readonly onBack: () => void;
}) {
  const { completeLogin } = useAuth();
  const [enrolled, setEnrolled] = useState<{ codes: string[]; session: VerifyLicenseReply } | null>(null);
  const enrol = pending.step.step === 'enrol';
  const back = (
    <Button variant="link" formAction="none" onClick={onBack}>
      {SECOND_FACTOR_TEXT.back}
    </Button>
  );

  return (
    <SpaceBetween size="l">
      <Header
        variant="h1"
        description={enrol ? SECOND_FACTOR_TEXT.enrolDescription : SECOND_FACTOR_TEXT.verifyDescription}
      >
        {SECOND_FACTOR_TEXT.title}
      </Header>
      {enrolled ? (
        <RecoveryCodes
          codes={enrolled.codes}
          onDone={() => completeLogin(pending.licenseKey, enrolled.session)}
        />
      ) : enrol ? (
        <SpaceBetween size="m">
          <FactorEnrolment
            token={pending.token}
            onEnrolled={(reply) => {
              if (!reply.session) return;
              if (reply.recoveryCodes.length > 0)
                setEnrolled({ codes: reply.recoveryCodes, session: reply.session });
              else completeLogin(pending.licenseKey, reply.session);
            }}
          />
          {back}
        </SpaceBetween>
      ) : (
        <SecondFactorCheck
          methods={pending.step.methods}
          token={pending.token}
          onVerified={(reply) => {
            if (reply.session) completeLogin(pending.licenseKey, reply.session);
          }}
          secondaryAction={back}
        />
      )}
    </SpaceBetween>
  );
}
