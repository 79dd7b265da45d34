import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { z } from 'zod';

import { LawyerRepository } from '../../functions/data/lawyers';
import { LicenseRepository } from '../../functions/data/licenses';
import type { Table } from '../../functions/data/table';
import { issueLicense } from '../../functions/domain/licenses';
import type { LicenseKeyVault } from '../../functions/security/license-key-vault';
import { REMINDER_FREQUENCY } from '../../shared/constants';

/** The demo licences of a local installation, kept (0600) so that every start can print them. */
const SeedFile = z.object({ adminLicenseKey: z.string(), lawyerLicenseKey: z.string() });
export type SeedKeys = z.infer<typeof SeedFile>;

const DEMO_LAWYER = {
  firstName: 'Camille',
  lastName: 'Martin',
  email: 'camille.martin.cabinet@gmail.com',
  mainEmail: 'contact@cabinet-martin.fr',
  officeName: 'Cabinet Martin Avocats',
  phoneNumber: '0142000000',
};

/**
 * On first start: an admin licence (the key from ADMIN_LICENSE_KEY if set) and a demo lawyer
 * licence with its lawyer profile. Later starts reuse them; a pinned admin key that is not yet a
 * licence is added.
 */
export async function seedLocalData(
  table: Table,
  vault: LicenseKeyVault,
  seedPath: string,
  pinnedAdminKey: string | undefined,
  now: string,
): Promise<SeedKeys> {
  const licenses = new LicenseRepository(table);
  if (existsSync(seedPath)) {
    const seed = SeedFile.parse(JSON.parse(readFileSync(seedPath, 'utf8')));
    if (!pinnedAdminKey || pinnedAdminKey === seed.adminLicenseKey) return seed;
    if (!(await licenses.getByHash(vault.hash(pinnedAdminKey)))) {
      await issueLicense(
        table,
        vault,
        { licenseKey: pinnedAdminKey, licenseType: 'admin', userEmail: null },
        now,
      );
    }
    const pinned = { ...seed, adminLicenseKey: pinnedAdminKey };
    writeFileSync(seedPath, JSON.stringify(pinned, null, 2), { mode: 0o600 });
    return pinned;
  }

  const admin = await issueLicense(
    table,
    vault,
    { licenseType: 'admin', userEmail: null, ...(pinnedAdminKey ? { licenseKey: pinnedAdminKey } : {}) },
    now,
  );
  const lawyer = await issueLicense(
    table,
    vault,
    { licenseType: 'lawyer', userEmail: DEMO_LAWYER.email, subscriptionStatus: 'active' },
    now,
  );
  await new LawyerRepository(table).create({
    id: randomUUID(),
    ...DEMO_LAWYER,
    emailSignature: null,
    reminderFrequency: REMINDER_FREQUENCY.default,
    licenseKeyHash: lawyer.record.keyHash,
    licenseKeyCiphertext: lawyer.record.keyCiphertext,
    hasGooglePassword: false,
    hasGoogleCredentials: false,
    createdAt: now,
    updatedAt: now,
  });
  const seed = { adminLicenseKey: admin.licenseKey, lawyerLicenseKey: lawyer.licenseKey };
  writeFileSync(seedPath, JSON.stringify(seed, null, 2), { mode: 0o600 });
  return seed;
}
