import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { LicenseNotFoundError } from '../../../../functions/domain/identity/ports';
import {
  createLicenseKeyVault,
  type LicenseKeyVault,
} from '../../../../functions/security/license-key-vault';
import { isGeneratedLicenseKey } from '../../../../shared/license-key';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { licenseFixture, minutesAfterOrigin, scanTable, uniqueEmail } from '../../../support/records';

describe('LicenseRepository', () => {
  let app: TestApp;
  let vault: LicenseKeyVault;
  let licenses: LicenseRepository;
  /** Every clear key this file stores, to prove none of them reaches the table. */
  const clearKeys: string[] = [];

  /** A licence fixture whose clear key is remembered for the final scan. */
  const newLicense = (overrides: Parameters<typeof licenseFixture>[1] = {}) => {
    const license = licenseFixture(vault, overrides);
    clearKeys.push(license.licenseKey);
    return license;
  };

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    vault = createLicenseKeyVault(app.keys);
    licenses = new LicenseRepository(app.table);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('create and getByHash', () => {
    it('reads back a created licence by its key hash', async () => {
      // Arrange
      const { licenseKey, record } = newLicense();

      // Act
      await licenses.create(record);
      const found = await licenses.getByHash(vault.hash(licenseKey));

      // Assert
      expect(found).toEqual(record);
    });

    it('returns null for an unknown hash', async () => {
      // Act
      const found = await licenses.getByHash(vault.hash('NOTARY-UNKNOWN0'));

      // Assert
      expect(found).toBeNull();
    });

    it('refuses a second licence with the same hash and keeps the first unchanged', async () => {
      // Arrange
      const { licenseKey, record: first } = newLicense({ licenseType: 'lawyer' });
      await licenses.create(first);
      const second = { ...newLicense({ licenseKey }).record, licenseType: 'admin' as const, userEmail: null };

      // Act
      const attempt = licenses.create(second);

      // Assert
      await expect(attempt).rejects.toMatchObject({ name: 'LicenseKeyTakenError' });
      expect(await licenses.getByHash(first.keyHash)).toEqual(first);
    });
  });

  describe('findByUserEmail', () => {
    it('finds a licence by its e-mail and type', async () => {
      // Arrange
      const { record } = newLicense({ licenseType: 'lawyer' });
      await licenses.create(record);

      // Act
      const found = await licenses.findByUserEmail(record.userEmail!, 'lawyer');

      // Assert
      expect(found).toEqual(record);
    });

    it('stores the e-mail lower-cased and finds the licence whatever the case of the query', async () => {
      // Arrange: a licence bought with capitals, as a customer may type his address at checkout.
      const email = uniqueEmail('achat');
      const { record } = newLicense({ licenseType: 'lawyer', userEmail: `  ${email.toUpperCase()} ` });
      await licenses.create(record);

      // Act
      const found = await licenses.findByUserEmail(email, 'lawyer');
      const foundByCapitals = await licenses.findByUserEmail(email.toUpperCase(), 'lawyer');

      // Assert
      expect(found?.userEmail).toBe(email);
      expect(foundByCapitals?.keyHash).toBe(record.keyHash);
    });

    it('does not find it under another type', async () => {
      // Arrange
      const { record } = newLicense({ licenseType: 'lawyer' });
      await licenses.create(record);

      // Act
      const found = await licenses.findByUserEmail(record.userEmail!, 'admin');

      // Assert
      expect(found).toBeNull();
    });

    it('keeps a licence without e-mail out of the e-mail index', async () => {
      // Arrange
      const { record } = newLicense({ licenseType: 'admin', userEmail: null });

      // Act
      await licenses.create(record);

      // Assert
      const { Item } = await app.table.doc.send(
        new GetCommand({
          TableName: app.table.name,
          Key: { PK: `LICENSE#${record.keyHash}`, SK: 'LICENSE' },
        }),
      );
      expect(Item).toMatchObject({ keyHash: record.keyHash, licenseType: 'admin', userEmail: null });
      expect(Item).not.toHaveProperty('GSI1PK');
    });
  });

  describe('updateUserEmail', () => {
    it('moves the licence from its old e-mail to the new one', async () => {
      // Arrange
      const { record } = newLicense();
      await licenses.create(record);
      const newEmail = uniqueEmail('moved');

      // Act
      await licenses.updateUserEmail(record.keyHash, newEmail, minutesAfterOrigin(5));

      // Assert
      expect(await licenses.findByUserEmail(record.userEmail!, 'lawyer')).toBeNull();
      expect(await licenses.findByUserEmail(newEmail, 'lawyer')).toMatchObject({
        keyHash: record.keyHash,
        userEmail: newEmail,
        updatedAt: minutesAfterOrigin(5),
      });
    });

    it('gives a licence without e-mail its first one', async () => {
      // Arrange
      const { record } = newLicense({ userEmail: null });
      await licenses.create(record);
      const email = uniqueEmail('first');

      // Act
      await licenses.updateUserEmail(record.keyHash, email, minutesAfterOrigin(5));

      // Assert
      expect(await licenses.findByUserEmail(email, 'lawyer')).toMatchObject({ keyHash: record.keyHash });
    });

    it('refuses an unknown licence without creating it', async () => {
      // Arrange
      const { record } = newLicense();

      // Act
      const attempt = licenses.updateUserEmail(record.keyHash, uniqueEmail(), minutesAfterOrigin(5));

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LicenseNotFoundError);
      expect(await licenses.getByHash(record.keyHash)).toBeNull();
    });
  });

  describe('updateState', () => {
    it('records the new state of a licence', async () => {
      // Arrange
      const { record } = newLicense({ subscriptionStatus: 'active' });
      await licenses.create(record);
      const state = {
        isActive: false,
        subscriptionStatus: 'past_due',
        nextPaymentDue: minutesAfterOrigin(60),
        accessEndsAt: null,
      };

      // Act
      await licenses.updateState(record.keyHash, state, minutesAfterOrigin(10));

      // Assert
      expect(await licenses.getByHash(record.keyHash)).toEqual({
        ...record,
        ...state,
        updatedAt: minutesAfterOrigin(10),
      });
    });

    it('refuses an unknown licence without creating it', async () => {
      // Arrange
      const { record } = newLicense();
      const state = { isActive: true, subscriptionStatus: null, nextPaymentDue: null, accessEndsAt: null };

      // Act
      const attempt = licenses.updateState(record.keyHash, state, minutesAfterOrigin(10));

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(LicenseNotFoundError);
      expect(await licenses.getByHash(record.keyHash)).toBeNull();
    });
  });

  describe('delete', () => {
    it('removes the licence and its e-mail look-up', async () => {
      // Arrange
      const { record } = newLicense();
      await licenses.create(record);

      // Act
      await licenses.delete(record.keyHash);

      // Assert
      expect(await licenses.getByHash(record.keyHash)).toBeNull();
      expect(await licenses.findByUserEmail(record.userEmail!, 'lawyer')).toBeNull();
    });
  });

  describe('issueLicense', () => {
    it('issues an active licence with the given key', async () => {
      // Arrange
      const licenseKey = 'cabinet-admin-key-2026';
      clearKeys.push(licenseKey, licenseKey.toUpperCase());

      // Act
      const issued = await issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseKey, licenseType: 'admin', userEmail: null },
        minutesAfterOrigin(0),
      );

      // Assert: keys are compared without case, so a chosen key is issued and kept upper-cased,
      // and found again as it was typed.
      expect(issued.licenseKey).toBe('CABINET-ADMIN-KEY-2026');
      const stored = await licenses.getByHash(vault.hash(licenseKey));
      expect(stored).toEqual(issued.record);
      expect(stored).toMatchObject({ licenseType: 'admin', isActive: true, userEmail: null });
      expect(vault.decrypt(stored!.keyCiphertext)).toBe('CABINET-ADMIN-KEY-2026');
    });

    it('refuses a given key that is already a licence', async () => {
      // Arrange
      const { licenseKey, record } = newLicense();
      await licenses.create(record);

      // Act
      const attempt = issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseKey, licenseType: 'admin', userEmail: null },
        minutesAfterOrigin(0),
      );

      // Assert
      await expect(attempt).rejects.toMatchObject({ name: 'LicenseKeyTakenError' });
      expect(await licenses.getByHash(record.keyHash)).toEqual(record);
    });

    it('issues a licence with a generated key when none is given', async () => {
      // Arrange
      const userEmail = uniqueEmail('buyer');

      // Act
      const issued = await issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseType: 'lawyer', userEmail, subscriptionStatus: 'active' },
        minutesAfterOrigin(0),
      );
      clearKeys.push(issued.licenseKey);

      // Assert
      expect(isGeneratedLicenseKey(issued.licenseKey)).toBe(true);
      expect(await licenses.getByHash(vault.hash(issued.licenseKey))).toMatchObject({
        licenseType: 'lawyer',
        userEmail,
        isActive: true,
        subscriptionStatus: 'active',
      });
      expect(await licenses.findByUserEmail(userEmail, 'lawyer')).toEqual(issued.record);
    });
  });

  describe('storage of keys', () => {
    it('never stores a clear licence key in any item', async () => {
      // Arrange
      const issued = await issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseType: 'lawyer', userEmail: uniqueEmail() },
        minutesAfterOrigin(0),
      );
      clearKeys.push(issued.licenseKey);

      // Act
      const items = await scanTable(app.table);

      // Assert
      const stored = JSON.stringify(items);
      expect(items.length).toBeGreaterThan(0);
      expect(stored).toContain(issued.record.keyHash);
      for (const licenseKey of clearKeys) {
        expect(stored).not.toContain(licenseKey);
        if (licenseKey.startsWith('NOTARY-')) expect(stored).not.toContain(licenseKey.slice(7));
      }
    });
  });
});
