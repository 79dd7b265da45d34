import type { AuditRecord } from '../directory/ports';
import type { PasskeyRecord, SecondFactorReads, SecondFactorRequirement } from '../identity/ports';

/* The second factor of a licence as the services store it (`data/second-factor`), and its settings. */

/** The recovery codes of a licence's first factor, stored with it, once. */
export interface FirstFactor {
  readonly recoveryCodeHashes: string[];
  readonly at: string;
}

/** The factor was changed by someone else between our read and our write (or is gone). */
export class SecondFactorChangedError extends Error {
  override name = 'SecondFactorChangedError';
}

/** Every write that consumes something is conditional: two requests never use the same code. */
export interface SecondFactors extends SecondFactorReads {
  savePendingTotp(keyHash: string, encryptedSecret: string): Promise<void>;
  /** @throws SecondFactorChangedError when the pending secret is no longer that one. */
  confirmTotp(
    keyHash: string,
    encryptedSecret: string,
    step: number,
    firstFactor: FirstFactor | null,
  ): Promise<void>;
  /** @throws SecondFactorChangedError when the licence has `maxPasskeys` already. */
  addPasskey(
    keyHash: string,
    passkey: PasskeyRecord,
    maxPasskeys: number,
    firstFactor: FirstFactor | null,
  ): Promise<void>;
  /** @throws SecondFactorChangedError for a step not later than the last one accepted. */
  consumeTotpStep(keyHash: string, step: number): Promise<void>;
  /** @throws SecondFactorChangedError for a code already used. */
  consumeRecoveryCode(keyHash: string, codeHash: string): Promise<void>;
  /** @throws SecondFactorChangedError when the passkey is no longer at `index`. */
  updatePasskeyCounter(keyHash: string, index: number, id: string, counter: number): Promise<void>;
  /**
   * Removes the TOTP factor; `last` when it is the licence's only factor (then it must be, and the
   * recovery codes and enrolment go with it). @throws SecondFactorChangedError otherwise.
   */
  removeTotp(keyHash: string, last: boolean): Promise<void>;
  /** Removes the passkey at `index` (it must still be `id` there); `last` as for `removeTotp`. */
  removePasskey(keyHash: string, index: number, id: string, last: boolean): Promise<void>;
  /** Removes the licence's factor (a reset: it must enrol again), with its audit entry if any, together. */
  delete(keyHash: string, audit?: AuditRecord): Promise<void>;
  /** Removes the factor and its attempt count, when the licence itself goes. */
  erase(keyHash: string): Promise<void>;
}

/** Whose codes a count holds: a licence's browsers not remembered, or one remembered browser. */
export interface AttemptPool {
  readonly keyHash: string;
  /** The remembered browser, or null for every browser not remembered. */
  readonly deviceId: string | null;
}

/** One code reserved in a pool's window, before it is looked at. */
export interface ReservedCode {
  /** End of the window it counts in, epoch seconds. */
  readonly windowEndsAt: number;
}

/** The codes of one pool in the current window: reserved before they are looked at. */
export interface SecondFactorAttempts {
  /** Counts one code; null when the pool's window is full (nothing is counted then). */
  reserve(
    pool: AttemptPool,
    nowSeconds: number,
    maxAttempts: number,
    windowSeconds: number,
  ): Promise<ReservedCode | null>;
  /** A right code gives its place back. */
  release(pool: AttemptPool, reserved: ReservedCode): Promise<void>;
  /** A wrong code keeps its place; returns the pool's wrong codes in the window. */
  markWrong(pool: AttemptPool, reserved: ReservedCode): Promise<number>;
  /** Forgets every count of a licence (a reset). */
  resetLicense(keyHash: string): Promise<void>;
}

/** A browser that passed a licence's second factor: its device cookie names it. */
export interface RememberedDeviceRecord {
  readonly deviceId: string;
  readonly licenseKeyHash: string;
  /** What the owner recognises it by ('Chrome sur Windows'), from its user agent. */
  readonly label: string;
  readonly createdAt: string;
  /** When it last passed the factor (its cookie was renewed then). */
  readonly lastUsedAt: string;
  /** When its cookie expires, epoch seconds (also the TTL attribute). */
  readonly expiresAt: number;
}

/** The remembered browsers of a licence; each expires with its cookie. */
export interface RememberedDevices {
  /** Remembers a browser, or renews one (its label, last use and expiry). */
  put(record: RememberedDeviceRecord): Promise<void>;
  /** The browser, or null when it is forgotten or expired. */
  get(keyHash: string, deviceId: string, nowSeconds: number): Promise<RememberedDeviceRecord | null>;
  list(keyHash: string, nowSeconds: number, limit: number): Promise<RememberedDeviceRecord[]>;
  /** Whether there was one to forget. */
  delete(keyHash: string, deviceId: string): Promise<boolean>;
  /** Forgets every browser of a licence (`except` one); returns how many. */
  deleteAll(keyHash: string, options?: { readonly except?: string }): Promise<number>;
}

export type ChallengePurpose = 'registration' | 'authentication';

/** The WebAuthn challenge a session was last given, one per purpose. */
export interface WebAuthnChallenges {
  put(sessionId: string, purpose: ChallengePurpose, challenge: string, expiresAt: number): Promise<void>;
  /** The challenge, removed in the same call; null when there is none or it has expired. */
  take(sessionId: string, purpose: ChallengePurpose, nowSeconds: number): Promise<string | null>;
}

/** The WebAuthn relying party: the site's host name (rpID) and its origin, as the browser sees them. */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
}

/** How the second factor is applied in one environment. */
export interface SecondFactorSettings extends SecondFactorRequirement {
  /** Read on first use: only the second-factor function is given the site's address. */
  readonly relyingParty: () => RelyingParty;
}
