import { randomBytes } from 'node:crypto';

import * as z from 'zod';

/**
 * The server's keys (session signing, licence-key hash, licence-key encryption), each its own secret
 * in AWS granted only to the functions that declare it, so a function sees only the keys it uses.
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
  const key = generateServerKey;
  return { sessionSigningKey: key(), licenseHashKey: key(), licenseEncryptionKey: key() };
}

/** One key from its stored form (base64, at least 32 bytes); anything else is a configuration error. */
export function parseServerKey(value: string): Uint8Array {
  const stored = z.base64().parse(value.trim());
  const bytes = Buffer.from(stored, 'base64');
  if (bytes.length < 32) throw new Error('Les clés du serveur doivent faire au moins 32 octets');
  return new Uint8Array(bytes);
}

/** A fresh key in its stored form: the base64 of 32 random bytes. */
export const generateServerKey = (): string => randomBytes(32).toString('base64');

/**
 * Parses the keys' JSON (the local keys file, and the combined secret of deployments made before
 * the keys were split, which the key generator migrates from); a malformed value is a
 * configuration error, reported at once.
 */
export function parseAppKeys(secretString: string): AppKeys {
  const stored = StoredAppKeys.parse(JSON.parse(secretString));
  const decode = parseServerKey;
  return {
    sessionSigningKey: decode(stored.sessionSigningKey),
    licenseHashKey: decode(stored.licenseHashKey),
    licenseEncryptionKey: decode(stored.licenseEncryptionKey),
  };
}
