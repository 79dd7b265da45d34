import {
  createSecondFactorVault,
  normaliseRecoveryCode,
  type SecondFactorVault,
} from '../../security/second-factor-secrets';
import { InvalidSecondFactorError } from '../core/errors';
import type { SessionContext } from '../identity/sessions';
import type { SecondFactorDeps } from './context';
import { SecondFactorChangedError, type SecondFactors } from './ports';

/**
 * The 10 one-time recovery codes given with a licence's first factor (`enrolment.ts` makes them),
 * kept as keyed hashes: each is accepted once, typed in any case, with or without its dash.
 */
export class RecoveryCodes {
  private readonly factors: SecondFactors;
  private readonly vault: SecondFactorVault;

  constructor(deps: Pick<SecondFactorDeps, 'factors' | 'keys'>) {
    this.factors = deps.factors;
    this.vault = createSecondFactorVault(deps.keys);
  }

  /** Uses a recovery code: removed from the licence's set only if it is still in it. */
  async check(session: SessionContext, code: string): Promise<void> {
    const hash = this.vault.hashRecoveryCode(session.licenseKeyHash, normaliseRecoveryCode(code));
    try {
      await this.factors.consumeRecoveryCode(session.licenseKeyHash, hash);
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new InvalidSecondFactorError(undefined, { cause: error });
      throw error;
    }
  }
}
