import { MESSAGES } from '../../../shared/messages';
import { createLicenseKeyVault } from '../../security/license-key-vault';
import { InvalidInputError, NotFoundError } from '../core/errors';
import { auditTarget } from '../directory/audit';
import { findLawyerOfLicense } from '../directory/members';
import type { AuditRecord } from '../directory/ports';
import type { SessionContext } from '../identity/sessions';
import type { SecondFactorDeps, SecondFactorStores } from './context';
import { factorChanged } from './passing';

/**
 * An admin resets another licence's factor (a lost phone): recorded on the audit trail, the
 * factor removed, its sessions ended and its remembered browsers forgotten, so it enrols again at
 * its next sign-in. An admin's own factor is reset by another admin, or by the deployment's
 * one-off command (`resetSecondFactorOf`).
 */
export class SecondFactorReset {
  constructor(private readonly deps: SecondFactorDeps) {}

  async reset(session: SessionContext, licenseKey: string): Promise<void> {
    const keyHash = createLicenseKeyVault(this.deps.keys).hash(licenseKey);
    if (keyHash === session.licenseKeyHash) throw new InvalidInputError(null, MESSAGES.secondFactor.ownReset);
    const license = await this.deps.licenses.getByHash(keyHash);
    if (!license) throw new NotFoundError(MESSAGES.secondFactor.licenseNotFound);
    const holder =
      license.licenseType === 'admin' ? null : await findLawyerOfLicense(this.deps.lawyers, license);
    // The trail names the lawyer (id, name, e-mail), an admin licence by its type: never a key or
    // its hash. It is written with the factor's removal, in one transaction.
    const { auditEntry } = this.deps.audit.joinedWrite(
      session,
      'license.second-factor.reset',
      holder ? auditTarget.lawyer(holder) : auditTarget.license(license.licenseType),
    );
    await resetSecondFactorOf(this.deps, keyHash, auditEntry);
  }
}

/**
 * Removes a licence's factor and its attempt counts, ends its sessions and forgets its remembered
 * browsers: the licence enrols again at its next sign-in. Shared by the admin's reset and the
 * one-off command.
 */
export async function resetSecondFactorOf(
  stores: Pick<SecondFactorStores, 'factors' | 'attempts' | 'sessionRecords' | 'devices'>,
  keyHash: string,
  /** An admin's reset is audited; the one-off command is the deployment's. */
  audit?: AuditRecord,
): Promise<void> {
  await stores.factors.delete(keyHash, audit);
  await stores.attempts.resetLicense(keyHash);
  await factorChanged(stores, keyHash);
}
