import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';

import { SECOND_FACTOR } from '../../shared/constants';
import type { AppKeys } from './app-keys';

/**
 * The second factor's secrets at rest: TOTP secrets encrypted with AES-256-GCM under the server's
 * encryption key (the one licence keys are encrypted with), bound to their licence by the
 * authenticated data, so a copied ciphertext does not decrypt for another licence; recovery codes
 * kept only as HMAC-SHA256 under the server's hash key (they are random, so a keyed hash suffices).
 */
export interface SecondFactorVault {
  encryptTotpSecret(licenseKeyHash: string, base32Secret: string): string;
  decryptTotpSecret(licenseKeyHash: string, ciphertext: string): string;
  hashRecoveryCode(licenseKeyHash: string, normalisedCode: string): string;
  /** The WebAuthn user handle of a licence: stable, and telling nothing about the licence. */
  webAuthnUserId(licenseKeyHash: string): Uint8Array<ArrayBuffer>;
}

export function createSecondFactorVault(
  keys: Pick<AppKeys, 'licenseHashKey' | 'licenseEncryptionKey'>,
): SecondFactorVault {
  const encryptionKey = keys.licenseEncryptionKey.subarray(0, 32);
  const aad = (licenseKeyHash: string) => Buffer.from(`totp:${licenseKeyHash}`, 'utf8');
  const hmac = (text: string) => createHmac('sha256', keys.licenseHashKey).update(text, 'utf8').digest();
  return {
    encryptTotpSecret: (licenseKeyHash, base32Secret) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      cipher.setAAD(aad(licenseKeyHash));
      const body = Buffer.concat([cipher.update(base32Secret, 'utf8'), cipher.final()]);
      return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
    },
    decryptTotpSecret: (licenseKeyHash, ciphertext) => {
      const [iv, body, tag] = ciphertext.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !body || !tag) throw new Error('Secret TOTP chiffré illisible');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, iv);
      decipher.setAAD(aad(licenseKeyHash));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
    hashRecoveryCode: (licenseKeyHash, normalisedCode) =>
      hmac(`recovery:${licenseKeyHash}:${normalisedCode}`).toString('base64url'),
    webAuthnUserId: (licenseKeyHash) => new Uint8Array(hmac(`webauthn-user:${licenseKeyHash}`)),
  };
}

/** Ten fresh recovery codes, `XXXXX-XXXXX` (about 50 bits each). */
export function generateRecoveryCodes(): string[] {
  const { recoveryCodeAlphabet: alphabet, recoveryCodeHalfLength: half, recoveryCodeCount } = SECOND_FACTOR;
  const part = () => Array.from({ length: half }, () => alphabet[randomInt(alphabet.length)]).join('');
  return Array.from({ length: recoveryCodeCount }, () => `${part()}-${part()}`);
}

/** A recovery code as stored and compared: no dash, no space, upper case. */
export const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]+/g, '').toUpperCase();
