import type { SessionPool } from '../../domain/identity/ports';

/*
 * Key formats of licences, sessions and sign-in attempts. Changing one changes where existing items
 * are looked for: it needs a migration.
 */

/**
 * E-mail addresses are compared without case (lawyer e-mails are stored lower-cased too), so a
 * licence bought as `Avocat@Cabinet.fr` is found for the profile `avocat@cabinet.fr`.
 */
export const normaliseLicenseEmail = (userEmail: string) => userEmail.trim().toLowerCase();

/** A licence, by the hash of its key (the key itself is never a key of the table). */
export const licenseItemKey = (keyHash: string) => ({ PK: `LICENSE#${keyHash}`, SK: 'LICENSE' });
/** GSI1: the licences of one e-mail. */
export const licenseEmailPartition = (userEmail: string) =>
  `LICENSE_EMAIL#${normaliseLicenseEmail(userEmail)}`;
/** GSI1 sort key of a licence: its type first, so one type of an e-mail is a prefix query. */
export const licenseTypeSortKey = (licenseType: string, keyHash: string) => `${licenseType}#${keyHash}`;
export const licenseTypePrefix = (licenseType: string) => `${licenseType}#`;

export const sessionKey = (sessionId: string) => ({ PK: `SESSION#${sessionId}`, SK: 'SESSION' });
/**
 * A pool of a licence's sessions (`VERIFIED`, or `PENDING#<remembered browser or ->`): the count of
 * places it has given, in the licence's partition.
 */
export const sessionPoolKey = (keyHash: string, pool: string) => ({
  PK: `LICENSE#${keyHash}`,
  SK: `SESSION_POOL#${pool}`,
});
/** A pool's name in its key: `VERIFIED`, or `PENDING#` and its remembered browser (`-` for none). */
export const sessionPoolName = (pool: SessionPool) =>
  pool.kind === 'verified' ? 'VERIFIED' : `PENDING#${pool.deviceId ?? '-'}`;
/** GSI2 groups the sessions of one licence, so that deleting a lawyer can end them all. */
export const licenseSessionsPartition = (keyHash: string) => `LICENSE_SESSIONS#${keyHash}`;
/** The failed sign-ins of one client (a hash of its address). */
export const signInAttemptsKey = (clientHash: string) => ({ PK: `SIGNIN#${clientHash}`, SK: 'ATTEMPTS' });

/** A licence's second factor (TOTP secret, passkeys, recovery-code hashes), in the licence's partition. */
export const secondFactorKey = (keyHash: string) => ({ PK: `LICENSE#${keyHash}`, SK: 'SECOND_FACTOR' });
/** A profile's claim on a licence key: one profile per key, naming the lawyer who holds it. */
export const lawyerLicenseClaimKey = (keyHash: string) => ({
  PK: `UNIQUE#LAWYER_LICENSE#${keyHash}`,
  SK: 'UNIQUE',
});
