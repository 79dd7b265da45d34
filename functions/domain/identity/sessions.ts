import { errors as joseErrors, jwtVerify } from 'jose';

import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { Role } from '../../../shared/schemas/session';
import type { AppKeys } from '../../security/app-keys';
import { SecondFactorRequiredError, UnauthenticatedError } from '../core/errors';
import type { Clock } from '../core/ports';
import type { LicenseRecord, Licenses, SecondFactorReads, SessionPool, Sessions } from './ports';
import { isEnrolled } from './second-factor-step';

export const ISSUER = 'assistant-juridique';
export const AUDIENCE = 'web';
/** The claim naming the session's licence (its key hash), read to fetch it beside the session. */
export const LICENSE_CLAIM = 'lic';
export const EMAIL_CLAIM = 'eml';

const importedKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

/**
 * The session signing key as WebCrypto uses it to sign and verify tokens, imported once per key:
 * an import costs more than the verification itself, and every request verifies a token.
 */
export function sessionKeyOf(raw: Uint8Array): Promise<CryptoKey> {
  let key = importedKeys.get(raw);
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    importedKeys.set(raw, key);
    // A failed import is tried again by the next request.
    key.catch(() => importedKeys.delete(raw));
  }
  return key;
}

/** Who is calling, as the server established it for this request. */
export interface SessionContext {
  readonly sessionId: string;
  /** The role comes from the licence as it is now, not as it was at sign-in. */
  readonly role: Role;
  readonly email: string;
  readonly licenseKeyHash: string;
  readonly license: LicenseRecord;
  /** Opened by the licence key alone; only the second-factor calls accept it. */
  readonly secondFactorPending: boolean;
  /** When this session last passed the licence's second factor (ISO), if it did. */
  readonly secondFactorAt: string | null;
  /** The remembered browser the session was opened from (its device cookie), if any. */
  readonly deviceId: string | null;
  /**
   * The e-mail of the profile holding the licence's key, as that profile's claim on the key says,
   * re-read with the session; absent when none holds it or its claim does not carry it yet.
   */
  readonly licenseHolderEmail?: string;
}

/** What a session token says, signature and expiry checked, before anything is re-read. */
export interface TokenClaims {
  readonly sessionId: string;
  /** The licence it was opened for (null in a token from before the claim existed). */
  readonly licenseKeyHash: string | null;
  /** The role of that licence at sign-in (null when absent). */
  readonly role: Role | null;
  /** The e-mail the session was opened with (null when absent): only ever to start a read ahead. */
  readonly email: string | null;
}

/** How a session opens: full, or waiting for the licence's second factor. */
export interface OpenOptions {
  /** Only the second-factor calls accept it, for `SECOND_FACTOR.pendingLifetimeSeconds`. */
  readonly secondFactorPending?: boolean;
  /** The second factor was passed just now (the session completing a pending one). */
  readonly secondFactorAt?: string;
  /** The remembered browser it is opened from: a pending one goes to that browser's own pool. */
  readonly deviceId?: string | null;
}

/**
 * A place taken in a licence's pool of sessions, before the session is written: its number, and
 * how many of the newest places the pool keeps.
 */
export interface SessionPlace {
  readonly license: LicenseRecord;
  readonly options: OpenOptions;
  readonly pool: SessionPool;
  readonly number: number;
  /** The pool's salt: ids of a pool counted anew (its licence's sessions all ended) never repeat. */
  readonly salt: string;
  readonly keep: number;
  /** Not counted in its pool yet: counted by the session's own write, if the pool still counts `number - 1`. */
  readonly uncounted?: boolean;
}

/** An opened session: the token the browser keeps and its absolute expiry. */
export interface OpenedSession {
  readonly sessionId: string;
  readonly token: string;
  readonly expiresAt: string;
}

export interface SessionServiceDependencies {
  readonly sessions: Sessions;
  readonly licenses: Pick<Licenses, 'getByHash'>;
  readonly secondFactors: SecondFactorReads;
  readonly keys: Pick<AppKeys, 'sessionSigningKey'>;
  readonly clock: Clock;
}

/**
 * Sessions: a signed token (HS256, jose) naming a server-side session record with an absolute
 * lifetime. Signing out deletes the record, so the token stops working before it expires. A
 * licence holds at most 20 verified sessions (opening the 21st ends the oldest), and its pending
 * (key-only) sessions apart, in pools of their own.
 */
export class SessionService {
  private readonly sessions: Sessions;
  private readonly licenses: Pick<Licenses, 'getByHash'>;
  private readonly secondFactors: SecondFactorReads;
  private readonly keys: Pick<AppKeys, 'sessionSigningKey'>;
  private readonly clock: Clock;

  constructor(deps: SessionServiceDependencies) {
    this.sessions = deps.sessions;
    this.licenses = deps.licenses;
    this.secondFactors = deps.secondFactors;
    this.keys = deps.keys;
    this.clock = deps.clock;
  }

  /**
   * Establishes who calls: the token must verify and not be expired, its session must still exist,
   * and the licence behind it must still be active (re-read on every request).
   */
  async authenticate(token: string): Promise<SessionContext> {
    return this.sessionOf(await this.claimsOf(token));
  }

  /**
   * What a token says, once its signature and expiry are checked: which session, and which licence
   * and role it was opened for. Nothing is decided from it before `sessionOf` re-reads both; a
   * request may only start a read beside that one (route-handler.ts, early reads).
   */
  async claimsOf(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, await sessionKeyOf(this.keys.sessionSigningKey), {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
      });
      if (!payload.sub) throw new UnauthenticatedError(MESSAGES.session.required);
      const claim = payload[LICENSE_CLAIM];
      const email = payload[EMAIL_CLAIM];
      return {
        sessionId: payload.sub,
        licenseKeyHash: typeof claim === 'string' && claim.length > 0 ? claim : null,
        role: typeof payload.role === 'string' ? (payload.role as Role) : null,
        email: typeof email === 'string' && email.length > 0 ? email : null,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof UnauthenticatedError) {
        throw new UnauthenticatedError(MESSAGES.session.required, { cause: error });
      }
      throw error;
    }
  }

  /** The caller of a verified token, from its session and licence as they are now. */
  async sessionOf(claims: TokenClaims): Promise<SessionContext> {
    const now = this.clock.now();
    const { sessionId, licenseKeyHash: licenseClaim } = claims;
    // Both items in one read; a token from before the claim existed reads the session first.
    const { session, license, holderEmail } =
      licenseClaim === null
        ? await this.sessionThenLicense(sessionId)
        : await this.sessions.getWithLicense(sessionId, licenseClaim);
    if (!session || session.expiresAt * 1000 <= now.getTime())
      throw new UnauthenticatedError(MESSAGES.session.required);
    // The session record stays the authority on which licence it belongs to.
    if (licenseClaim !== null && licenseClaim !== session.licenseKeyHash)
      throw new UnauthenticatedError(MESSAGES.session.required);
    if (!license?.isActive) throw new UnauthenticatedError(MESSAGES.session.licenseInactive);
    return {
      sessionId,
      role: license.licenseType,
      email: session.email,
      licenseKeyHash: session.licenseKeyHash,
      license,
      secondFactorPending: session.secondFactorPending === true,
      secondFactorAt: session.secondFactorAt ?? null,
      deviceId: session.deviceId ?? null,
      ...(holderEmail ? { licenseHolderEmail: holderEmail } : {}),
    };
  }

  private async sessionThenLicense(sessionId: string) {
    const session = await this.sessions.get(sessionId);
    const license = session ? await this.licenses.getByHash(session.licenseKeyHash) : null;
    return { session, license, holderEmail: null };
  }

  /**
   * Before a sensitive action: a licence with a second factor must have passed it within
   * `SECOND_FACTOR.stepUpMaxAgeSeconds`, else the client is asked for it again (step-up).
   */
  async requireRecentSecondFactor(session: SessionContext): Promise<void> {
    if (session.secondFactorAt) {
      const age = this.clock.now().getTime() - Date.parse(session.secondFactorAt);
      if (age <= SECOND_FACTOR.stepUpMaxAgeSeconds * 1000) return;
      throw new SecondFactorRequiredError();
    }
    // Never passed in this session: only a licence without any factor has nothing to ask.
    if (isEnrolled(await this.secondFactors.get(session.licenseKeyHash)))
      throw new SecondFactorRequiredError();
  }

  /** Records that the session just passed its second factor again (step-up), from that browser. */
  async markSecondFactor(sessionId: string, at: string, deviceId: string): Promise<void> {
    await this.sessions.markSecondFactor(sessionId, at, deviceId);
  }

  /**
   * Ends every other session of the licence, pending ones included: its factor changed, so
   * nothing opened before the change (nor by the key alone) outlives it.
   */
  async endOtherSessions(session: SessionContext): Promise<number> {
    return this.sessions.deleteByLicense(session.licenseKeyHash, { except: session.sessionId });
  }

  /** Ends a session ('Déconnexion'). */
  async close(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }
}
