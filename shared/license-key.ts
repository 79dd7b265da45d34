import { LICENSE_KEY } from './constants';

/** A source of cryptographically secure random bytes (Web Crypto in browsers and in Node.js). */
export type RandomBytes = (length: number) => Uint8Array;

const webCryptoRandomBytes: RandomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));

/**
 * Generates a licence key: `NOTARY-` followed by 8 uppercase alphanumerics drawn from a
 * cryptographic source without modulo bias (bytes past the largest multiple of 36 are rejected).
 */
export function generateLicenseKey(randomBytes: RandomBytes = webCryptoRandomBytes): string {
  const { alphabet, randomLength, prefix } = LICENSE_KEY;
  const limit = 256 - (256 % alphabet.length);
  let key = '';
  while (key.length < randomLength) {
    for (const byte of randomBytes(randomLength * 2)) {
      if (byte < limit && key.length < randomLength) key += alphabet[byte % alphabet.length];
    }
  }
  return prefix + key;
}

/**
 * The one spelling of a key: trimmed and upper-cased, so that a key typed in lower case from an
 * e-mail, or pasted with spaces around it, is the same key. Every key is stored and hashed in this
 * form from now on; keys stored earlier in another case are still found (the vault's `hashes`).
 */
export function normalizeLicenseKey(key: string): string {
  return key.trim().toUpperCase();
}

const GENERATED_KEY_PATTERN = new RegExp(`^${LICENSE_KEY.prefix}[A-Z0-9]{${LICENSE_KEY.randomLength}}$`);

/** Whether a key has the generated format (keys created by an admin may have another shape). */
export function isGeneratedLicenseKey(key: string): boolean {
  return GENERATED_KEY_PATTERN.test(key);
}

/**
 * A licence key as every list shows it: its prefix and last 4 characters, the rest hidden
 * (`NOTARY-••••1234`); a key too short to spare 4 characters shows none. The key itself is
 * revealed one at a time, on demand, behind the second factor.
 */
export function maskLicenseKey(key: string): string {
  const dash = key.indexOf('-');
  const prefix = dash >= 0 && dash < key.length - 1 ? key.slice(0, dash + 1) : '';
  const rest = key.slice(prefix.length);
  return `${prefix}••••${rest.length >= 8 ? rest.slice(-4) : ''}`;
}
