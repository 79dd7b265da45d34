import type { LicenseType, Role } from '../../../shared/schemas/session';

/* Licences, sessions and sign-in attempts as the identity services store them (`data/identity`). */

/** A licence as stored: the key only as its look-up hash and an encrypted copy. */
export interface LicenseRecord {
  keyHash: string;
  keyCiphertext: string;
  licenseType: LicenseType;
  userEmail: string | null;
  isActive: boolean;
  subscriptionStatus: string | null;
  nextPaymentDue: string | null;
  /** A cancellation is scheduled: access lasts until this date (the paid period's end), then ends. */
  accessEndsAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** When SES reported its key e-mail bounced or complained of; null once one was delivered. */
  licenseEmailUndeliveredAt?: string | null;
}

/** The part of a licence record that follows its subscription. */
export type LicenseState = Pick<
  LicenseRecord,
  'isActive' | 'subscriptionStatus' | 'nextPaymentDue' | 'accessEndsAt'
>;

/** What a sign-in needs to know about the licence of a key, read at once. */
export interface SignInItems {
  readonly license: LicenseRecord;
  /** The licence's second factor, if it has one. */
  readonly secondFactor: SecondFactorRecord | null;
  /** The profile holding the licence's key (its uniqueness claim), if one does. */
  readonly boundLawyerId: string | null;
  /**
   * The places counted so far in the two pools this sign-in may open its session in (null: none
   * yet): the verified one, and the pending one of its browser (remembered or not).
   */
  readonly pools: { readonly verified: PoolCount | null; readonly pending: PoolCount | null };
}

/** A session pool's count as read: its last place given and its salt. */
export interface PoolCount {
  readonly places: number;
  readonly salt: string;
}

/** No licence has that key. */
export class LicenseNotFoundError extends Error {
  override name = 'LicenseNotFoundError';
}

/** A licence with that key exists already: a new one never overwrites it. */
export class LicenseKeyTakenError extends Error {
  override name = 'LicenseKeyTakenError';
}

/** A registered passkey: what @simplewebauthn/server needs to verify its next answers. */
export interface PasskeyRecord {
  /** The credential id (base64url). */
  readonly id: string;
  /** The COSE public key, base64url: public by nature, kept as the library returns it. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: string[];
  readonly createdAt: string;
}

/**
 * The second factor of one licence. The TOTP secret is only ever stored encrypted (server key);
 * recovery codes only as keyed hashes.
 */
export interface SecondFactorRecord {
  readonly licenseKeyHash: string;
  /** The confirmed TOTP secret (encrypted) and the last time step accepted (replays refused). */
  readonly totp: { readonly secret: string; readonly lastStep: number } | null;
  /** A TOTP secret shown for scanning and not yet confirmed by a first code (encrypted). */
  readonly pendingTotpSecret: string | null;
  readonly passkeys: PasskeyRecord[];
  readonly recoveryCodeHashes: string[];
  /** When the licence's first factor was confirmed; null while it has none. */
  readonly enrolledAt: string | null;
}

/** Reads a licence's second factor: what sign-in and the step-up ask of it. */
export interface SecondFactorReads {
  get(keyHash: string): Promise<SecondFactorRecord | null>;
}

/** Whether the second factor is required where a licence has none yet. */
export interface SecondFactorRequirement {
  /**
   * Whether an admin licence must pass a second factor (enrolling one at its first sign-in). Always
   * in AWS; lifted locally by `REQUIRE_SECOND_FACTOR=false`. A licence with a factor is asked for it.
   */
  readonly requiredForAdmins: boolean;
}

/** Licence records (spec §7 license_keys calls). */
export interface Licenses {
  /** @throws LicenseKeyTakenError when a licence has that key already. */
  create(record: LicenseRecord): Promise<void>;
  getByHash(keyHash: string): Promise<LicenseRecord | null>;
  /** Marks (a time) or clears (null) its key e-mail as undelivered; false when no such licence. */
  markLicenseEmail(keyHash: string, undeliveredAt: string | null, now: string): Promise<boolean>;
  /**
   * Claims the resend of its key e-mail at `at`, unless one was claimed after `notBefore`: false
   * then, or when no such licence. One conditional write: two clicks at once send one e-mail.
   */
  claimLicenseEmailResend(keyHash: string, at: string, notBefore: string): Promise<boolean>;
  /** Gives the claim made at `at` up (its e-mail was not sent), if it is still the last one. */
  releaseLicenseEmailResend(keyHash: string, at: string): Promise<void>;
  /** The licence stored under the first of these hashes that has one (a key's `vault.hashes`). */
  getByAnyHash(keyHashes: readonly string[]): Promise<LicenseRecord | null>;
  /**
   * The licence of the first hash that has one, with its second factor, its holder and its session
   * pools' counts: one read. `device` is the remembered browser the sign-in comes from (its pending
   * pool is read for the licence it names), if any.
   */
  getForSignIn(
    keyHashes: readonly string[],
    device?: { readonly licenseKeyHash: string; readonly deviceId: string } | null,
  ): Promise<SignInItems | null>;
  findByUserEmail(userEmail: string, licenseType: LicenseType): Promise<LicenseRecord | null>;
  listByUserEmail(userEmail: string): Promise<LicenseRecord[]>;
  /** @throws LicenseNotFoundError */
  updateUserEmail(keyHash: string, userEmail: string, now: string): Promise<void>;
  /** @throws LicenseNotFoundError */
  updateState(keyHash: string, state: LicenseState, now: string): Promise<void>;
  delete(keyHash: string): Promise<void>;
}

/** A member's profile as identity shows it; the directory's lawyer record is one. */
export interface MemberProfile {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

/** Spec §5's look-up of the member behind a licence, kept by the directory (`memberLookupOf`). */
export interface MemberLookup {
  /** The licence's member; `boundLawyerId` names the profile holding its key, read beside the licence. */
  memberOf(license: LicenseRecord, boundLawyerId: string | null): Promise<MemberProfile | null>;
  /** The e-mails the holder of a licence may name as his own: his profile's and his licence's. */
  ownEmailsOf(license: LicenseRecord): Promise<string[]>;
}

/** A server-side session: the token names it, 'Déconnexion' deletes it, its expiry sweeps it. */
export interface SessionRecord {
  sessionId: string;
  licenseKeyHash: string;
  role: Role;
  email: string;
  createdAt: string;
  /** Absolute expiry, epoch seconds. */
  expiresAt: number;
  /** Opened by the licence key alone: only the second-factor calls accept it until it is passed. */
  secondFactorPending?: boolean;
  /** When this session last passed the licence's second factor (ISO). */
  secondFactorAt?: string;
  /** The remembered browser (device cookie) the session was opened from, if any. */
  deviceId?: string;
}

/**
 * The sessions of a licence that count against one another's cap: the verified ones, or the
 * pending ones of one pool (browsers not remembered, or one remembered browser).
 */
export type SessionPool =
  | { readonly kind: 'verified' }
  | { readonly kind: 'pending'; readonly deviceId: string | null };

/** A place counted with its session's write: the pool, the place (its count becomes it) and the pool's salt. */
export interface PlaceCount {
  readonly pool: SessionPool;
  readonly number: number;
  readonly salt: string;
}

export interface Sessions {
  /**
   * The next place in a licence's pool (1, 2, ...): one atomic count, so parallel sign-ins never
   * share one; with the pool's salt, drawn at its first place (its session ids are derived from both).
   */
  takePlace(keyHash: string, pool: SessionPool): Promise<{ number: number; salt: string }>;
  /**
   * Writes a session and ends `ends` (the one its place pushes beyond the pool's cap), in one
   * transaction; false when a later place had already ended it (sign-ins that started after it
   * finished first): it was never opened. With `counts`, its place is counted in the same
   * transaction, if the pool still has the count it was read with; false, with nothing written, if
   * another sign-in counted that place first.
   */
  create(record: SessionRecord, ends: string | null, counts?: PlaceCount): Promise<boolean>;
  get(sessionId: string): Promise<SessionRecord | null>;
  /**
   * A session, the licence it claims to belong to and the e-mail of the profile holding that
   * licence's key (its claim's; null when none or not carried), in one read; the caller checks
   * that session and licence match.
   */
  getWithLicense(
    sessionId: string,
    licenseKeyHash: string,
  ): Promise<{ session: SessionRecord | null; license: LicenseRecord | null; holderEmail: string | null }>;
  markSecondFactor(sessionId: string, at: string, deviceId: string): Promise<void>;
  delete(sessionId: string): Promise<void>;
  updateEmail(sessionId: string, email: string): Promise<void>;
  /** Ends every session of a licence (but `except`); returns how many there were. */
  deleteByLicense(keyHash: string, options?: { readonly except?: string }): Promise<number>;
  /** Ends the sessions of a licence opened from one remembered browser; returns how many. */
  deleteByDevice(keyHash: string, deviceId: string): Promise<number>;
}

/**
 * An attempt counted in its client's window (a wrong key, a portal link asked for): how many were
 * counted before it in the window; or none, the window's count having reached the lock.
 */
export type CountedAttempt =
  | { readonly outcome: 'counted'; readonly earlier: number }
  | { readonly outcome: 'locked' };

/**
 * Attempts counted per client (a keyed hash of its address, or of an e-mail) over a fixed window.
 * Only spent attempts count: a right key never does.
 */
export interface SignInAttempts {
  /** Counts one attempt in the open window (or a new one), unless `limit` are counted there already. */
  count(
    clientHash: string,
    nowSeconds: number,
    windowSeconds: number,
    limit: number,
  ): Promise<CountedAttempt>;
  /** How many attempts the client's open window counts now (none when it has no open window). */
  counted(clientHash: string, nowSeconds: number): Promise<number>;
}
