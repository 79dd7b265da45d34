import type { z } from 'zod';

import { maskLicenseKey } from '../../../shared/license-key';
import { MESSAGES } from '../../../shared/messages';
import type { License } from '../../../shared/schemas/billing';
import type { LicenseByEmailQuery, LicenseFindRequest } from '../../../shared/schemas/directory';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { ForbiddenError } from '../core/errors';
import type { LicenseRecord, Licenses, MemberLookup } from './ports';
import type { SessionContext } from './sessions';

/**
 * A licence as shown to its owner or an admin: the key decrypted from its stored copy, masked
 * (`NOTARY-••••1234`) unless `key` is 'clear' (its owner, or the admin who gave the key).
 */
export function toLicenseView(
  record: LicenseRecord,
  vault: LicenseKeyVault,
  key: 'masked' | 'clear' = 'clear',
): License {
  const licenseKey = vault.decrypt(record.keyCiphertext);
  return {
    licenseKey: key === 'masked' ? maskLicenseKey(licenseKey) : licenseKey,
    licenseType: record.licenseType,
    userEmail: record.userEmail,
    isActive: record.isActive,
    subscriptionStatus: record.subscriptionStatus,
    nextPaymentDue: record.nextPaymentDue,
    accessEndsAt: record.accessEndsAt,
  };
}

export interface LicenseLookupDependencies {
  readonly licenses: Pick<Licenses, 'findByUserEmail' | 'getByAnyHash'>;
  readonly members: Pick<MemberLookup, 'ownEmailsOf'>;
  readonly vault: LicenseKeyVault;
}

/**
 * The licence look-ups of spec §7 (license_keys calls). An admin may look up any licence; a lawyer
 * or notary only his own, the one of his session: asking about another e-mail or key is a 403.
 */
export class LicenseLookupService {
  private readonly licenses: Pick<Licenses, 'findByUserEmail' | 'getByAnyHash'>;
  private readonly members: Pick<MemberLookup, 'ownEmailsOf'>;
  private readonly vault: LicenseKeyVault;

  constructor(deps: LicenseLookupDependencies) {
    this.licenses = deps.licenses;
    this.members = deps.members;
    this.vault = deps.vault;
  }

  /** Spec: select single row by user_email and license_type; null when there is none. */
  async byEmail(
    query: z.output<typeof LicenseByEmailQuery>,
    session: SessionContext,
  ): Promise<License | null> {
    if (session.role === 'admin') {
      // Another firm's key: masked, as in every list (revealed from the lawyer's details).
      const found = await this.licenses.findByUserEmail(query.userEmail, query.licenseType);
      return found ? toLicenseView(found, this.vault, 'masked') : null;
    }
    const own = session.license;
    if (!(await this.members.ownEmailsOf(own)).includes(query.userEmail)) {
      throw new ForbiddenError(MESSAGES.session.forbidden);
    }
    const matches = own.userEmail === query.userEmail && own.licenseType === query.licenseType;
    return matches ? toLicenseView(own, this.vault) : null;
  }

  /** Spec fallback: select by license_key (optionally of one type, optionally active only). */
  async byKey(
    request: z.output<typeof LicenseFindRequest>,
    session: SessionContext,
  ): Promise<License | null> {
    const keyHashes = this.vault.hashes(request.licenseKey);
    if (session.role !== 'admin' && !keyHashes.includes(session.licenseKeyHash)) {
      throw new ForbiddenError(MESSAGES.session.forbidden);
    }
    const found = await this.licenses.getByAnyHash(keyHashes);
    if (!found) return null;
    if (request.licenseType && found.licenseType !== request.licenseType) return null;
    if (request.activeOnly && !found.isActive) return null;
    return toLicenseView(found, this.vault);
  }
}
