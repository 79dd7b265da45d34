import { randomBytes } from 'node:crypto';

import { z } from 'zod';

/**
 * The server's own keys, kept together in one secret (Secrets Manager in AWS, a 0600 file
 * locally): the session-signing key, the key of the licence-key hash used for look-ups and the
 * key that encrypts the copy of a licence key shown to its owner or an admin.
 */
export interface AppKeys {
  readonly sessionSigningKey: Uint8Array;
  readonly licenseHashKey: Uint8Array;
  readonly licenseEncryptionKey: Uint8Array;
}

/** The JSON form of the keys as stored in the secret: base64, 32 bytes each. */
export const StoredAppKeys = z.object({
  sessionSigningKey: z.base64(),
  licenseHashKey: z.base64(),
  licenseEncryptionKey: z.base64(),
});
export type StoredAppKeys = z.infer<typeof StoredAppKeys>;

/** Generates a fresh set of keys (first local start; the CDK stack generates its own secret). */
export function generateStoredAppKeys(): StoredAppKeys {
  const key = () => randomBytes(32).toString('base64');
  return { sessionSigningKey: key(), licenseHashKey: key(), licenseEncryptionKey: key() };
}

/** Parses the secret's JSON; a malformed secret is a configuration error, reported at once. */
export function parseAppKeys(secretString: string): AppKeys {
  const stored = StoredAppKeys.parse(JSON.parse(secretString));
  const decode = (value: string) => {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length < 32) throw new Error('Les clés du serveur doivent faire au moins 32 octets');
    return new Uint8Array(bytes);
  };
  return {
    sessionSigningKey: decode(stored.sessionSigningKey),
    licenseHashKey: decode(stored.licenseHashKey),
    licenseEncryptionKey: decode(stored.licenseEncryptionKey),
  };
}
