import { randomBytes, randomUUID } from 'node:crypto';

import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '../../functions/data/table/table';
import type { FolderRecord, LawyerRecord, WorkflowRecord } from '../../functions/domain/directory/ports';
import { newLicenseRecord } from '../../functions/domain/identity/licenses';
import type { LicenseRecord } from '../../functions/domain/identity/ports';
import type { LicenseKeyVault } from '../../functions/security/license-key-vault';
import { generateLicenseKey } from '../../shared/license-key';

/**
 * Record factories for the repository and handler tests. Every call draws fresh ids, e-mails and
 * keys, so tests that share a table never see each other's data.
 */

/** A unique e-mail address (lower case, as the schemas store them). */
export const uniqueEmail = (label = 'user') => `${label}.${randomUUID()}@example.com`;

/** Fresh licence hash and encryption keys, as the server keys hold them. */
export const newLicenseKeys = () => ({
  licenseHashKey: randomBytes(32),
  licenseEncryptionKey: randomBytes(32),
});

/** `count` minutes, in milliseconds. */
export const minutes = (count: number) => count * 60_000;

/** A timestamp `minutes` after a fixed origin, to order records by creation time. */
export const minutesAfterOrigin = (minutes: number) =>
  new Date(Date.UTC(2026, 10, 22, 9, 0, 0) + minutes * 60_000).toISOString();

/** A licence record for `licenseKey` (a fresh generated key unless given), with its clear key. */
export function licenseFixture(
  vault: LicenseKeyVault,
  overrides: Partial<LicenseRecord> & { licenseKey?: string } = {},
): { licenseKey: string; record: LicenseRecord } {
  const { licenseKey = generateLicenseKey(), ...fields } = overrides;
  const record = newLicenseRecord(
    vault,
    licenseKey,
    { licenseType: 'lawyer', userEmail: uniqueEmail('licence') },
    minutesAfterOrigin(0),
  );
  return { licenseKey, record: { ...record, ...fields } };
}

/** A lawyer profile with a unique id and e-mail and no licence. */
export function lawyerRecord(overrides: Partial<LawyerRecord> = {}): LawyerRecord {
  const email = overrides.email ?? uniqueEmail('lawyer');
  return {
    id: randomUUID(),
    firstName: 'Camille',
    lastName: 'Martin',
    email,
    mainEmail: email,
    emailSignature: null,
    reminderFrequency: 7,
    phoneNumber: null,
    officeName: null,
    licenseKeyHash: null,
    licenseKeyCiphertext: null,
    hasGooglePassword: false,
    hasGoogleCredentials: false,
    createdAt: minutesAfterOrigin(0),
    updatedAt: minutesAfterOrigin(0),
    ...overrides,
  };
}

/** An active workflow of a unique owner, scheduling off, in no folder. */
export function workflowRecord(overrides: Partial<WorkflowRecord> = {}): WorkflowRecord {
  return {
    id: randomUUID(),
    name: 'Gestion client',
    description: 'Automatisation de la gestion des clients',
    webhookUrl: 'https://hooks.example.com/client-management',
    lawyerEmail: uniqueEmail('owner'),
    active: true,
    type: 'client_management',
    folderId: null,
    tags: [],
    category: null,
    cronEnabled: false,
    cronInterval: 2,
    cronLastRun: null,
    cronNextRun: null,
    createdAt: minutesAfterOrigin(0),
    updatedAt: minutesAfterOrigin(0),
    ...overrides,
  };
}

/** A folder with a unique id. */
export function folderRecord(overrides: Partial<FolderRecord> = {}): FolderRecord {
  return {
    id: randomUUID(),
    name: 'Dossier Dupont',
    description: 'Succession Dupont',
    counts: { total: 0, active: 0, scheduled: 0 },
    createdAt: minutesAfterOrigin(0),
    updatedAt: minutesAfterOrigin(0),
    ...overrides,
  };
}

/**
 * Every item of the table. Test code only: the product never scans, but a test may, to prove what
 * the table does or does not hold.
 */
export async function scanTable(table: Table): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new ScanCommand({ TableName: table.name, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
