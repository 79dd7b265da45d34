import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import {
  LawyerChangedError,
  LawyerConflictError,
  type LawyerRecord,
} from '../../../../functions/domain/directory/ports';
import {
  createLicenseKeyVault,
  type LicenseKeyVault,
} from '../../../../functions/security/license-key-vault';
import { generateLicenseKey } from '../../../../shared/license-key';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { lawyerRecord, minutesAfterOrigin, scanTable, uniqueEmail } from '../../../support/records';

describe('LawyerRepository', () => {
  let app: TestApp;
  let vault: LicenseKeyVault;
  let lawyers: LawyerRepository;

  /** A lawyer holding a fresh licence key (hash and encrypted copy). */
  const lawyerWithLicense = (overrides: Partial<LawyerRecord> = {}) => {
    const licenseKey = generateLicenseKey();
    return lawyerRecord({
      licenseKeyHash: vault.hash(licenseKey),
      licenseKeyCiphertext: vault.encrypt(licenseKey),
      ...overrides,
    });
  };

  /** Items of the table that mention a value anywhere. */
  const itemsMentioning = async (value: string) =>
    (await scanTable(app.table)).filter((item) => JSON.stringify(item).includes(value));

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    vault = createLicenseKeyVault(app.keys);
    lawyers = new LawyerRepository(app.table);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('create and look-ups', () => {
    it('reads a created lawyer back by id, e-mail and licence hash', async () => {
      // Arrange
      const lawyer = lawyerWithLicense();

      // Act
      await lawyers.create(lawyer);

      // Assert
      expect(await lawyers.getById(lawyer.id)).toEqual(lawyer);
      expect(await lawyers.findByEmail(lawyer.email)).toEqual(lawyer);
      expect(await lawyers.findByLicenseHash(lawyer.licenseKeyHash!)).toEqual(lawyer);
    });

    it('returns null for an unknown id, e-mail or licence hash', async () => {
      expect(await lawyers.getById('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await lawyers.findByEmail(uniqueEmail())).toBeNull();
      expect(await lawyers.findByLicenseHash(vault.hash(generateLicenseKey()))).toBeNull();
    });

    it('lists lawyers newest first', async () => {
      // Arrange
      const oldest = lawyerRecord({ createdAt: minutesAfterOrigin(1) });
      const newest = lawyerRecord({ createdAt: minutesAfterOrigin(3) });
      const middle = lawyerRecord({ createdAt: minutesAfterOrigin(2) });
      for (const lawyer of [oldest, newest, middle]) await lawyers.create(lawyer);
      const mine = new Set([oldest.id, newest.id, middle.id]);

      // Act
      const listed = (await lawyers.page(100)).items;

      // Assert
      expect(listed.filter((lawyer) => mine.has(lawyer.id)).map((lawyer) => lawyer.id)).toEqual([
        newest.id,
        middle.id,
        oldest.id,
      ]);
    });
  });

  describe('uniqueness', () => {
    it('refuses a second lawyer with the same e-mail and writes nothing of him', async () => {
      // Arrange
      const first = lawyerRecord();
      await lawyers.create(first);
      const second = lawyerWithLicense({ email: first.email });

      // Act
      const attempt = lawyers.create(second);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LawyerConflictError);
      expect(await lawyers.getById(second.id)).toBeNull();
      expect(await itemsMentioning(second.id)).toEqual([]);
      expect(await lawyers.findByLicenseHash(second.licenseKeyHash!)).toBeNull();
      expect(await lawyers.findByEmail(first.email)).toEqual(first);
    });

    it('refuses a second lawyer with the same licence key', async () => {
      // Arrange
      const first = lawyerWithLicense();
      await lawyers.create(first);
      const second = lawyerRecord({ licenseKeyHash: first.licenseKeyHash });

      // Act
      const attempt = lawyers.create(second);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LawyerConflictError);
      expect(await lawyers.getById(second.id)).toBeNull();
      expect(await lawyers.findByEmail(second.email)).toBeNull();
      expect(await lawyers.findByLicenseHash(first.licenseKeyHash!)).toEqual(first);
    });

    it('lets exactly one of five concurrent creations with the same e-mail succeed', async () => {
      // Arrange
      const email = uniqueEmail('race');
      const candidates = Array.from({ length: 5 }, () => lawyerRecord({ email }));

      // Act
      const outcomes = await Promise.allSettled(candidates.map((lawyer) => lawyers.create(lawyer)));

      // Assert
      const winners = candidates.filter((_, index) => outcomes[index]?.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      expect(refusals).toHaveLength(4);
      for (const refusal of refusals) expect(refusal).toBeInstanceOf(LawyerConflictError);
      expect(await lawyers.findByEmail(email)).toEqual(winners[0]);
      const profiles = await Promise.all(candidates.map((lawyer) => lawyers.getById(lawyer.id)));
      expect(profiles.filter((profile) => profile !== null)).toEqual(winners);
    });
  });

  describe('update', () => {
    it('moves the e-mail claim: the new e-mail finds him, the old one is free again', async () => {
      // Arrange
      const previous = lawyerRecord();
      await lawyers.create(previous);
      const next = { ...previous, email: uniqueEmail('renamed'), updatedAt: minutesAfterOrigin(5) };

      // Act
      await lawyers.update(previous, next);

      // Assert
      expect(await lawyers.findByEmail(next.email)).toEqual(next);
      expect(await lawyers.findByEmail(previous.email)).toBeNull();
      const newcomer = lawyerRecord({ email: previous.email });
      await lawyers.create(newcomer);
      expect(await lawyers.findByEmail(previous.email)).toEqual(newcomer);
    });

    it('moves the licence claim when the licence key changes', async () => {
      // Arrange
      const previous = lawyerWithLicense();
      await lawyers.create(previous);
      const licenseKey = generateLicenseKey();
      const next = {
        ...previous,
        licenseKeyHash: vault.hash(licenseKey),
        licenseKeyCiphertext: vault.encrypt(licenseKey),
        updatedAt: minutesAfterOrigin(5),
      };

      // Act
      await lawyers.update(previous, next);

      // Assert
      expect(await lawyers.findByLicenseHash(next.licenseKeyHash)).toEqual(next);
      expect(await lawyers.findByLicenseHash(previous.licenseKeyHash!)).toBeNull();
    });

    it("refuses to take another lawyer's e-mail and changes nothing", async () => {
      // Arrange
      const other = lawyerRecord();
      const previous = lawyerRecord();
      await lawyers.create(other);
      await lawyers.create(previous);
      const next = { ...previous, email: other.email, updatedAt: minutesAfterOrigin(5) };

      // Act
      const attempt = lawyers.update(previous, next);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LawyerConflictError);
      expect(await lawyers.getById(previous.id)).toEqual(previous);
      expect(await lawyers.findByEmail(previous.email)).toEqual(previous);
      expect(await lawyers.findByEmail(other.email)).toEqual(other);
    });

    it('refuses an update made from a stale read', async () => {
      // Arrange
      const original = lawyerRecord();
      await lawyers.create(original);
      const firstEdit = { ...original, officeName: 'Cabinet Martin', updatedAt: minutesAfterOrigin(5) };
      await lawyers.update(original, firstEdit);
      const staleEdit = { ...original, phoneNumber: '0142000000', updatedAt: minutesAfterOrigin(6) };

      // Act
      const attempt = lawyers.update(original, staleEdit);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LawyerChangedError);
      expect(await lawyers.getById(original.id)).toEqual(firstEdit);
    });

    it('refuses to update a lawyer who no longer exists', async () => {
      // Arrange
      const ghost = lawyerRecord();

      // Act
      const attempt = lawyers.update(ghost, { ...ghost, firstName: 'Louis' });

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LawyerChangedError);
      expect(await lawyers.getById(ghost.id)).toBeNull();
    });
  });

  describe('delete', () => {
    it('removes the profile and both claims', async () => {
      // Arrange
      const lawyer = lawyerWithLicense();
      await lawyers.create(lawyer);

      // Act
      await lawyers.delete(lawyer);

      // Assert
      expect(await lawyers.getById(lawyer.id)).toBeNull();
      expect(await itemsMentioning(lawyer.id)).toEqual([]);
      expect(await itemsMentioning(lawyer.email)).toEqual([]);
      expect(await itemsMentioning(lawyer.licenseKeyHash!)).toEqual([]);
      const successor = lawyerRecord({ email: lawyer.email, licenseKeyHash: lawyer.licenseKeyHash });
      await lawyers.create(successor);
      expect(await lawyers.findByEmail(lawyer.email)).toEqual(successor);
    });
  });
});
