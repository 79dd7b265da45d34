import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { z } from 'zod';

import { LawyerRepository } from '../../functions/data/directory/lawyers';
import { LicenseRepository } from '../../functions/data/identity/licenses';
import type { Table } from '../../functions/data/table/table';
import { issueLicense } from '../../functions/domain/identity/licenses';
import type { LicenseKeyVault } from '../../functions/security/license-key-vault';
import { REMINDER_FREQUENCY } from '../../shared/constants';

/** The demo licences of a local installation, kept (0600) so that every start can print them. */
const SeedFile = z.object({
  adminLicenseKey: z.string(),
  lawyerLicenseKey: z.string(),
  /** Added after the first release: seed files without it get a demo notary on the next start. */
  notaryLicenseKey: z.string().optional(),
});
export type SeedKeys = Required<z.infer<typeof SeedFile>>;

const DEMO_LAWYER = {
  firstName: 'Camille',
  lastName: 'Martin',
  email: 'camille.martin.cabinet@gmail.com',
  mainEmail: 'contact@cabinet-martin.fr',
  officeName: 'Cabinet Martin Avocats',
  phoneNumber: '0142000000',
};

const DEMO_NOTARY = {
  firstName: 'Louis',
  lastName: 'Bernard',
  email: 'louis.bernard.etude@gmail.com',
  mainEmail: 'contact@etude-bernard.fr',
  officeName: 'Étude Bernard',
  phoneNumber: '0145000000',
};

/** A demo member licence (lawyer or notary) with its profile, as an admin would save it. */
async function seedMember(
  table: Table,
  vault: LicenseKeyVault,
  licenseType: 'lawyer' | 'notary',
  profile: typeof DEMO_LAWYER,
  now: string,
): Promise<string> {
  const license = await issueLicense(
    new LicenseRepository(table),
    vault,
    { licenseType, userEmail: profile.email, subscriptionStatus: 'active' },
    now,
  );
  await new LawyerRepository(table).create({
    id: randomUUID(),
    ...profile,
    emailSignature: null,
    reminderFrequency: REMINDER_FREQUENCY.default,
    licenseKeyHash: license.record.keyHash,
    licenseKeyCiphertext: license.record.keyCiphertext,
    hasGooglePassword: false,
    hasGoogleCredentials: false,
    createdAt: now,
    updatedAt: now,
  });
  return license.licenseKey;
}

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
    const stored = SeedFile.parse(JSON.parse(readFileSync(seedPath, 'utf8')));
    const seed: SeedKeys = {
      ...stored,
      notaryLicenseKey:
        stored.notaryLicenseKey ?? (await seedMember(table, vault, 'notary', DEMO_NOTARY, now)),
    };
    if (pinnedAdminKey && pinnedAdminKey !== seed.adminLicenseKey) {
      if (!(await licenses.getByAnyHash(vault.hashes(pinnedAdminKey)))) {
        await issueLicense(
          new LicenseRepository(table),
          vault,
          { licenseKey: pinnedAdminKey, licenseType: 'admin', userEmail: null },
          now,
        );
      }
      seed.adminLicenseKey = pinnedAdminKey;
    }
    if (JSON.stringify(seed) !== JSON.stringify(stored)) {
      writeFileSync(seedPath, JSON.stringify(seed, null, 2), { mode: 0o600 });
    }
    return seed;
  }

  const admin = await issueLicense(
    new LicenseRepository(table),
    vault,
    { licenseType: 'admin', userEmail: null, ...(pinnedAdminKey ? { licenseKey: pinnedAdminKey } : {}) },
    now,
  );
  const seed: SeedKeys = {
    adminLicenseKey: admin.licenseKey,
    lawyerLicenseKey: await seedMember(table, vault, 'lawyer', DEMO_LAWYER, now),
    notaryLicenseKey: await seedMember(table, vault, 'notary', DEMO_NOTARY, now),
  };
  writeFileSync(seedPath, JSON.stringify(seed, null, 2), { mode: 0o600 });
  return seed;
}
