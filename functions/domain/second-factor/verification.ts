import { MESSAGES } from '../../../shared/messages';
import type {
  PublicKeyCredentialJson,
  SecondFactorStatus,
  VerifySecondFactorReply,
} from '../../../shared/schemas/second-factor';
import { InvalidInputError } from '../core/errors';
import { isEnrolled } from '../identity/second-factor-step';
import type { SessionContext } from '../identity/sessions';
import { CodeThrottle } from './code-throttle';
import type { Browser, SecondFactorDeps } from './context';
import { FactorPassing } from './passing';
import { PasskeyFactor } from './passkeys';
import type { SecondFactors } from './ports';
import { RecoveryCodes } from './recovery-codes';
import { TotpFactor } from './totp';

/** A second-factor check, as the verify call receives it (codes already normalised by the schema). */
export type SecondFactorProof =
  | { readonly method: 'totp'; readonly code: string }
  | { readonly method: 'recovery'; readonly code: string }
  | { readonly method: 'passkey'; readonly credential: PublicKeyCredentialJson };

/**
 * The check of a licence's factor, whichever it is: it completes a pending sign-in (a full
 * session replaces the pending one) or renews a full session's check before a sensitive action
 * (step-up). Every code is counted before it is looked at (`CodeThrottle`).
 */
export class SecondFactorCheck {
  private readonly factors: SecondFactors;

  constructor(private readonly deps: SecondFactorDeps) {
    this.factors = deps.factors;
  }

  /** The caller's factor: never a secret, a public key or a code. */
  async status(session: SessionContext): Promise<SecondFactorStatus> {
    const record = await this.factors.get(session.licenseKeyHash);
    const enrolled = isEnrolled(record);
    return {
      required: enrolled || (session.role === 'admin' && this.deps.settings.requiredForAdmins),
      enrolled,
      totp: record?.totp != null,
      passkeys: (record?.passkeys ?? []).map((passkey) => ({ id: passkey.id, createdAt: passkey.createdAt })),
      recoveryCodesLeft: record?.recoveryCodeHashes.length ?? 0,
      verifiedAt: session.secondFactorAt,
    };
  }

  async verify(
    session: SessionContext,
    proof: SecondFactorProof,
    browser: Browser,
  ): Promise<{ reply: VerifySecondFactorReply; cookie: string }> {
    await new CodeThrottle(this.deps).counted(session, async () => {
      const record = await this.factors.get(session.licenseKeyHash);
      if (!isEnrolled(record)) throw new InvalidInputError(null, MESSAGES.secondFactor.notEnrolled);
      if (proof.method === 'totp') await new TotpFactor(this.deps).check(session, record, proof.code);
      else if (proof.method === 'recovery') await new RecoveryCodes(this.deps).check(session, proof.code);
      else await new PasskeyFactor(this.deps).check(session, record, proof.credential);
    });
    const { reply, cookie } = await new FactorPassing(this.deps).passed(session, browser);
    return { reply, cookie };
  }
}
