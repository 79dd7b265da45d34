import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import {
  generateRecoveryCodes,
  normaliseRecoveryCode,
  type SecondFactorVault,
} from '../../security/second-factor-secrets';
import { ForbiddenError, InvalidInputError, SecondFactorRequiredError } from '../core/errors';
import type { Clock } from '../core/ports';
import type { SecondFactorRecord } from '../identity/ports';
import { isEnrolled } from '../identity/second-factor-step';
import type { SessionContext } from '../identity/sessions';
import { displayNameOf } from '../identity/sign-in';
import type { SecondFactorSettings, SecondFactors } from './ports';

/**
 * Who may change a licence's factors: a pending session only to enrol a licence without a factor
 * (an admin's first sign-in); a full session any time, but changing an existing factor needs a
 * recent check. Returns the licence's factor as read.
 */
export async function mayChangeFactors(
  factors: SecondFactors,
  clock: Clock,
  session: SessionContext,
): Promise<SecondFactorRecord | null> {
  const record = await factors.get(session.licenseKeyHash);
  if (!isEnrolled(record)) return record;
  if (session.secondFactorPending) throw new ForbiddenError(MESSAGES.secondFactor.alreadyEnrolled);
  const checkedAt = session.secondFactorAt ? Date.parse(session.secondFactorAt) : 0;
  if (clock.now().getTime() - checkedAt > SECOND_FACTOR.stepUpMaxAgeSeconds * 1000)
    throw new SecondFactorRequiredError();
  return record;
}

/**
 * Before a factor is removed: a licence that must have one (an admin licence, where the
 * environment requires it) keeps at least one.
 */
export function mayRemove(
  record: SecondFactorRecord,
  settings: Pick<SecondFactorSettings, 'requiredForAdmins'>,
  session: SessionContext,
  last: boolean,
): void {
  if (last && session.role === 'admin' && settings.requiredForAdmins)
    throw new InvalidInputError(null, MESSAGES.secondFactor.lastFactorRequired);
  if (!isEnrolled(record)) throw new InvalidInputError(null, MESSAGES.secondFactor.notEnrolled);
}

/**
 * The recovery codes of a licence's first factor (shown once, stored as keyed hashes), or none
 * when it already has a factor (its codes stay the ones given then).
 */
export function recoveryCodesFor(
  record: SecondFactorRecord | null,
  vault: SecondFactorVault,
  clock: Clock,
  session: SessionContext,
): { readonly codes: string[]; readonly firstFactor: { recoveryCodeHashes: string[]; at: string } | null } {
  if (isEnrolled(record)) return { codes: [], firstFactor: null };
  const codes = generateRecoveryCodes();
  return {
    codes,
    firstFactor: {
      recoveryCodeHashes: codes.map((code) =>
        vault.hashRecoveryCode(session.licenseKeyHash, normaliseRecoveryCode(code)),
      ),
      at: clock.now().toISOString(),
    },
  };
}

/** What authenticator apps and passkey managers show for the licence. */
export const userNameOf = (session: SessionContext): string =>
  session.email || displayNameOf(session.role, null);
