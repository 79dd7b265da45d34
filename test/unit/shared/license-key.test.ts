import { describe, expect, it, vi } from 'vitest';

import { LICENSE_KEY } from '../../../shared/constants';
import { generateLicenseKey, isGeneratedLicenseKey, type RandomBytes } from '../../../shared/license-key';

const GENERATED_FORMAT = /^NOTARY-[A-Z0-9]{8}$/;

/** A random source that replays the given bytes, then zeros. */
function replayingSource(bytes: number[]): RandomBytes {
  const queue = [...bytes];
  return (length) => Uint8Array.from({ length }, () => queue.shift() ?? 0);
}

describe('generateLicenseKey', () => {
  describe('format', () => {
    it('produces NOTARY- followed by 8 uppercase alphanumerics', () => {
      // Act
      const key = generateLicenseKey();

      // Assert
      expect(key).toMatch(GENERATED_FORMAT);
    });

    it('draws two keys that differ', () => {
      // Act
      const first = generateLicenseKey();
      const second = generateLicenseKey();

      // Assert
      expect(first).not.toBe(second);
    });
  });

  describe('random source', () => {
    it('maps the injected bytes onto the alphabet', () => {
      // Arrange
      const randomBytes = vi.fn(replayingSource([0, 1, 2, 25, 26, 35, 36, 71]));

      // Act
      const key = generateLicenseKey(randomBytes);

      // Assert
      expect(randomBytes).toHaveBeenCalled();
      expect(key).toBe('NOTARY-ABCZ09A9');
    });

    it('rejects bytes past the largest multiple of the alphabet size instead of biasing', () => {
      // Arrange: 252..255 would favour the first four characters if taken modulo 36
      const randomBytes = replayingSource([252, 253, 254, 255, 3, 3, 3, 3, 3, 3, 3, 3]);

      // Act
      const key = generateLicenseKey(randomBytes);

      // Assert
      expect(key).toBe('NOTARY-DDDDDDDD');
    });

    it('still yields a valid key when the source returns only 255s for a while', () => {
      // Arrange
      const randomBytes = vi.fn(replayingSource([...Array(64).fill(255), 7, 8, 9, 10, 11, 12, 13, 14]));

      // Act
      const key = generateLicenseKey(randomBytes);

      // Assert
      expect(key).toBe('NOTARY-HIJKLMNO');
      expect(randomBytes.mock.calls.length).toBeGreaterThan(1);
    });
  });

  describe('distribution', () => {
    it('uses every character of the alphabet over 2000 keys', () => {
      // Act
      const keys = Array.from({ length: 2000 }, () => generateLicenseKey());

      // Assert
      const seen = new Set(keys.flatMap((key) => [...key.slice(LICENSE_KEY.prefix.length)]));
      expect([...seen].sort()).toEqual([...LICENSE_KEY.alphabet].sort());
      expect(keys.every((key) => GENERATED_FORMAT.test(key))).toBe(true);
    });
  });
});

describe('isGeneratedLicenseKey', () => {
  it('accepts a generated key', () => {
    expect(isGeneratedLicenseKey(generateLicenseKey())).toBe(true);
  });

  it.each([
    ['a lower-case random part', 'NOTARY-abcd1234'],
    ['a random part of 7 characters', 'NOTARY-ABCD123'],
    ['a random part of 9 characters', 'NOTARY-ABCD12345'],
    ['another prefix', 'LAWYER-ABCD1234'],
    ['a character outside the alphabet', 'NOTARY-ABCD-234'],
    ['surrounding text', ' NOTARY-ABCD1234'],
    ['an admin-chosen key', 'admin-secret-key'],
  ])('refuses %s', (_label, key) => {
    expect(isGeneratedLicenseKey(key)).toBe(false);
  });
});
