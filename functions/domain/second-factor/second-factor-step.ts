import type { SecondFactorMethod, SecondFactorStep } from '../../../shared/schemas/session';
import type { LicenseRecord } from '../../data/identity/licenses';
import {
  isEnrolled,
  type SecondFactorRecord,
  type SecondFactorRepository,
} from '../../data/second-factor/second-factors';
import type { SecondFactorSettings } from '../../runtime/dependencies';

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
  factors: SecondFactorRepository,
  settings: Pick<SecondFactorSettings, 'requiredForAdmins'>,
  license: LicenseRecord,
): Promise<SecondFactorStep | null> {
  return secondFactorStepOf(await factors.get(license.keyHash), settings, license);
}

/** The same, from the licence's factor already read (`record`, null when it has none). */
export function secondFactorStepOf(
  record: SecondFactorRecord | null,
  settings: Pick<SecondFactorSettings, 'requiredForAdmins'>,
  license: LicenseRecord,
): SecondFactorStep | null {
  if (isEnrolled(record)) return { step: 'verify', methods: methodsOf(record) };
  if (license.licenseType === 'admin' && settings.requiredForAdmins) return { step: 'enrol', methods: [] };
  return null;
}
