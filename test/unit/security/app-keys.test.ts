import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { generateStoredAppKeys, parseAppKeys } from '../../../functions/security/app-keys';

describe('parseAppKeys', () => {
  it('decodes the three stored keys into 32-byte keys', () => {
    // Arrange
    const stored = generateStoredAppKeys();

    // Act
    const keys = parseAppKeys(JSON.stringify(stored));

    // Assert
    expect(keys.sessionSigningKey).toHaveLength(32);
    expect(keys.licenseHashKey).toHaveLength(32);
    expect(keys.licenseEncryptionKey).toHaveLength(32);
    expect(Buffer.from(keys.licenseHashKey).toString('base64')).toBe(stored.licenseHashKey);
  });

  it('refuses a key shorter than 32 bytes', () => {
    // Arrange
    const stored = { ...generateStoredAppKeys(), licenseHashKey: randomBytes(16).toString('base64') };

    // Act + Assert
    expect(() => parseAppKeys(JSON.stringify(stored))).toThrow(
      'Les clés du serveur doivent faire au moins 32 octets',
    );
  });

  it('refuses a secret that is not JSON', () => {
    expect(() => parseAppKeys('{not json')).toThrow(SyntaxError);
  });

  it('refuses a secret with a missing key', () => {
    // Arrange
    const { sessionSigningKey, licenseHashKey } = generateStoredAppKeys();

    // Act + Assert
    expect(() => parseAppKeys(JSON.stringify({ sessionSigningKey, licenseHashKey }))).toThrow();
  });

  it('refuses a key that is not base64', () => {
    // Arrange
    const stored = { ...generateStoredAppKeys(), sessionSigningKey: 'pas du base64 !' };

    // Act + Assert
    expect(() => parseAppKeys(JSON.stringify(stored))).toThrow();
  });
});

describe('generateStoredAppKeys', () => {
  it('draws three different keys each time', () => {
    // Act
    const first = generateStoredAppKeys();
    const second = generateStoredAppKeys();

    // Assert
    expect(new Set(Object.values(first)).size).toBe(3);
    expect(first.sessionSigningKey).not.toBe(second.sessionSigningKey);
  });
});
