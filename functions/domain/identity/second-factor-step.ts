import type { SecondFactorMethod, SecondFactorStep } from '../../../shared/schemas/session';
import type { LicenseRecord, SecondFactorReads, SecondFactorRecord, SecondFactorRequirement } from './ports';

/** Whether a licence has a factor to check (a confirmed TOTP secret or a passkey). */
export const isEnrolled = (record: SecondFactorRecord | null): record is SecondFactorRecord =>
  record !== null && (record.totp !== null || record.passkeys.length > 0);

/** The licence's methods, passkeys first (the stronger one is offered first). */
export function methodsOf(record: SecondFactorRecord): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (record.passkeys.length > 0) methods.push('passkey');
  if (record.totp) methods.push('totp');
  if (record.recoveryCodeHashes.length > 0) methods.push('recovery');
  return methods;
}

/**
 * What a licence's sign-in asks after its key, or null when it asks nothing: a licence with a
 * factor is always asked for it; an admin licence without one must enrol (unless the environment
 * lifts that requirement). Kept apart from `SecondFactorService` so that signing in does not load
 * the WebAuthn and TOTP libraries, which only the second-factor function needs.
 */
export async function secondFactorStepFor(
  factors: SecondFactorReads,
  settings: SecondFactorRequirement,
  license: LicenseRecord,
): Promise<SecondFactorStep | null> {
  return secondFactorStepOf(await factors.get(license.keyHash), settings, license);
}

/** The same, from the licence's factor already read (`record`, null when it has none). */
export function secondFactorStepOf(
  record: SecondFactorRecord | null,
  settings: SecondFactorRequirement,
  license: LicenseRecord,
): SecondFactorStep | null {
  if (isEnrolled(record)) return { step: 'verify', methods: methodsOf(record) };
  if (license.licenseType === 'admin' && settings.requiredForAdmins) return { step: 'enrol', methods: [] };
  return null;
}
