import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

import { normalizeLicenseKey } from '../../shared/license-key';
import type { AppKeys } from './app-keys';

/**
 * Licence keys are bearer secrets. The table never holds one in clear: look-ups use a keyed hash
 * (HMAC-SHA256 under a server key), and the copy shown to its owner or an admin is encrypted with
 * AES-256-GCM.
 */
export interface LicenseKeyVault {
  /** The look-up hash of a key, in its one spelling (trimmed, upper case). */
  hash(licenseKey: string): string;
  /**
   * The hashes a typed key may be stored under: its one spelling first, then the key exactly as
   * typed (trimmed) when that differs — a key an admin chose in mixed case before keys were
   * normalised is stored under that spelling, and keeps working when typed so.
   */
  hashes(licenseKey: string): readonly string[];
  /** Whether a typed key is the one stored under `keyHash` (either spelling of `hashes`). */
  matches(licenseKey: string, keyHash: string): boolean;
  /** An encrypted copy of a key. */
  encrypt(licenseKey: string): string;
  /** The key behind an encrypted copy. */
  decrypt(ciphertext: string): string;
}

export function createLicenseKeyVault(
  keys: Pick<AppKeys, 'licenseHashKey' | 'licenseEncryptionKey'>,
): LicenseKeyVault {
  // Read when used, not here: a function that only hashes keys has no encryption key at all.
  const encryptionKey = () => keys.licenseEncryptionKey.subarray(0, 32);
  const hmac = (text: string) =>
    createHmac('sha256', keys.licenseHashKey).update(text, 'utf8').digest('base64url');
  const hashes = (licenseKey: string) => {
    const normalized = hmac(normalizeLicenseKey(licenseKey));
    const asTyped = hmac(licenseKey.trim());
    return asTyped === normalized ? [normalized] : [normalized, asTyped];
  };
  return {
    hash: (licenseKey) => hmac(normalizeLicenseKey(licenseKey)),
    hashes,
    matches: (licenseKey, keyHash) => hashes(licenseKey).includes(keyHash),
    encrypt: (licenseKey) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
      const body = Buffer.concat([cipher.update(licenseKey, 'utf8'), cipher.final()]);
      return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
    },
    decrypt: (ciphertext) => {
      const [iv, body, tag] = ciphertext.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !body || !tag) throw new Error('Copie chiffrée de clé de licence illisible');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}
