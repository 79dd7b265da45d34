import { describe, expect, it } from 'vitest';

import { createLicenseKeyVault } from '../../../functions/security/license-key-vault';
import { generateLicenseKey } from '../../../shared/license-key';
import { newLicenseKeys } from '../../support/records';

describe('createLicenseKeyVault', () => {
  describe('hash', () => {
    it('gives the same hash for the same key under the same hash key', () => {
      // Arrange
      const keys = newLicenseKeys();
      const licenseKey = generateLicenseKey();

      // Act
      const first = createLicenseKeyVault(keys).hash(licenseKey);
      const second = createLicenseKeyVault(keys).hash(licenseKey);

      // Assert
      expect(first).toBe(second);
    });

    it('gives another hash under another hash key', () => {
      // Arrange
      const licenseKey = generateLicenseKey();

      // Act
      const first = createLicenseKeyVault(newLicenseKeys()).hash(licenseKey);
      const second = createLicenseKeyVault(newLicenseKeys()).hash(licenseKey);

      // Assert
      expect(first).not.toBe(second);
    });

    it('gives different hashes to different keys and never contains the key', () => {
      // Arrange
      const vault = createLicenseKeyVault(newLicenseKeys());
      const licenseKey = generateLicenseKey();

      // Act
      const hash = vault.hash(licenseKey);

      // Assert
      expect(hash).not.toBe(vault.hash(generateLicenseKey()));
      expect(hash).not.toContain(licenseKey);
      expect(hash).not.toContain(licenseKey.slice('NOTARY-'.length));
    });
  });

  describe('encrypt and decrypt', () => {
    it('decrypts an encrypted key back to the key', () => {
      // Arrange
      const vault = createLicenseKeyVault(newLicenseKeys());
      const licenseKey = generateLicenseKey();

      // Act
      const ciphertext = vault.encrypt(licenseKey);

      // Assert
      expect(ciphertext).not.toContain(licenseKey.slice('NOTARY-'.length));
      expect(vault.decrypt(ciphertext)).toBe(licenseKey);
    });

    it('encrypts the same key differently each time', () => {
      // Arrange
      const vault = createLicenseKeyVault(newLicenseKeys());
      const licenseKey = generateLicenseKey();

      // Act
      const first = vault.encrypt(licenseKey);
      const second = vault.encrypt(licenseKey);

      // Assert
      expect(first).not.toBe(second);
      expect(vault.decrypt(first)).toBe(licenseKey);
      expect(vault.decrypt(second)).toBe(licenseKey);
    });

    it('refuses a tampered ciphertext', () => {
      // Arrange
      const vault = createLicenseKeyVault(newLicenseKeys());
      const [iv, body, tag] = vault.encrypt(generateLicenseKey()).split('.') as [string, string, string];
      const flipped = Buffer.from(body, 'base64url');
      flipped[0] = (flipped[0] ?? 0) ^ 0x01;
      const tampered = [iv, flipped.toString('base64url'), tag].join('.');

      // Act + Assert
      expect(() => vault.decrypt(tampered)).toThrow();
    });

    it('refuses a ciphertext encrypted under another key', () => {
      // Arrange
      const ciphertext = createLicenseKeyVault(newLicenseKeys()).encrypt(generateLicenseKey());

      // Act + Assert
      expect(() => createLicenseKeyVault(newLicenseKeys()).decrypt(ciphertext)).toThrow();
    });

    it('refuses a ciphertext that is not in three parts', () => {
      // Arrange
      const vault = createLicenseKeyVault(newLicenseKeys());

      // Act + Assert
      expect(() => vault.decrypt('not-a-ciphertext')).toThrow('Copie chiffrée de clé de licence illisible');
    });
  });
});
