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
  /** Removes the licence's factor (a reset: it must enrol again). */
  delete(keyHash: string): Promise<void>;
  /** Removes the factor and its attempt count, when the licence itself goes. */
  erase(keyHash: string): Promise<void>;
}

/** The wrong codes of one licence in the current window. */
export interface SecondFactorAttempts {
  /** Counts one attempt; false when the window's attempts are used up (nothing counted then). */
  reserve(keyHash: string, nowSeconds: number, maxAttempts: number, windowSeconds: number): Promise<boolean>;
  reset(keyHash: string): Promise<void>;
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
