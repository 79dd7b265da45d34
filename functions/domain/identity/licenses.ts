import { generateLicenseKey, normalizeLicenseKey } from '../../../shared/license-key';
import type { LicenseType } from '../../../shared/schemas/session';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { LicenseKeyTakenError, type LicenseRecord, type Licenses } from './ports';

/** What to issue: a given key (an admin's choice) or a generated one. */
export interface LicenseToIssue {
  readonly licenseKey?: string;
  readonly licenseType: LicenseType;
  readonly userEmail: string | null;
  readonly subscriptionStatus?: string | null;
  readonly nextPaymentDue?: string | null;
}

/** Builds the stored record of a new, active licence: only the key's hash and encrypted copy. */
export function newLicenseRecord(
  vault: LicenseKeyVault,
  licenseKey: string,
  issue: LicenseToIssue,
  now: string,
): LicenseRecord {
  return {
    keyHash: vault.hash(licenseKey),
    keyCiphertext: vault.encrypt(normalizeLicenseKey(licenseKey)),
    licenseType: issue.licenseType,
    userEmail: issue.userEmail,
    isActive: true,
    subscriptionStatus: issue.subscriptionStatus ?? null,
    nextPaymentDue: issue.nextPaymentDue ?? null,
    accessEndsAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Issues a licence and returns its key. A generated key that collides with an existing one (the
 * conditional write refuses it) is drawn again; a given key that exists is an error.
 */
export async function issueLicense(
  licenses: Pick<Licenses, 'create'>,
  vault: LicenseKeyVault,
  issue: LicenseToIssue,
  now: string,
): Promise<{ licenseKey: string; record: LicenseRecord }> {
  for (let attempt = 0; ; attempt++) {
    const licenseKey = normalizeLicenseKey(issue.licenseKey ?? generateLicenseKey());
    const record = newLicenseRecord(vault, licenseKey, issue, now);
    try {
      await licenses.create(record);
      return { licenseKey, record };
    } catch (error) {
      const collided = error instanceof LicenseKeyTakenError;
      if (!collided || issue.licenseKey || attempt >= 5) throw error;
    }
  }
}
