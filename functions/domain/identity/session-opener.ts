import { createHmac, randomUUID } from 'node:crypto';

import { SignJWT } from 'jose';

import { MAX_SESSIONS_PER_LICENSE, SECOND_FACTOR, SESSION_LIFETIME_SECONDS } from '../../../shared/constants';
import type { AppKeys } from '../../security/app-keys';
import type { Clock } from '../core/ports';
import type { LicenseRecord, PoolCount, SessionPool, Sessions } from './ports';
import {
  AUDIENCE,
  EMAIL_CLAIM,
  ISSUER,
  LICENSE_CLAIM,
  type OpenedSession,
  type OpenOptions,
  type SessionPlace,
  sessionKeyOf,
} from './sessions';

/** Tries of a session whose place was ended before it was written (a burst of sign-ins). */
const PLACE_TRIES = 5;

/**
 * The pool a session opens in and how many of its newest places it keeps: the verified sessions
 * MAX_SESSIONS_PER_LICENSE; the pending ones theirs apart, a remembered browser's its own.
 */
function poolOf(options: OpenOptions): { readonly pool: SessionPool; readonly keep: number } {
  const deviceId = options.deviceId ?? null;
  const { perLicense, perRememberedBrowser } = SECOND_FACTOR.pendingSessions;
  return options.secondFactorPending
    ? { pool: { kind: 'pending', deviceId }, keep: deviceId === null ? perLicense : perRememberedBrowser }
    : { pool: { kind: 'verified' }, keep: MAX_SESSIONS_PER_LICENSE };
}

export interface SessionOpenerDependencies {
  readonly sessions: Pick<Sessions, 'takePlace' | 'create'>;
  readonly keys: Pick<AppKeys, 'sessionSigningKey'>;
  readonly clock: Clock;
}

/**
 * Opens sessions (sign-in, a pending session that passed its factor): its place in the licence's
 * pool, then the session and its signed token. Apart from `SessionService`, which every protected
 * request uses, so that only the functions that open sessions carry this code.
 */
export class SessionOpener {
  private readonly sessions: Pick<Sessions, 'takePlace' | 'create'>;
  private readonly keys: Pick<AppKeys, 'sessionSigningKey'>;
  private readonly clock: Clock;

  constructor(deps: SessionOpenerDependencies) {
    this.sessions = deps.sessions;
    this.keys = deps.keys;
    this.clock = deps.clock;
  }

  /** Opens a session for a licence that was just verified. */
  async open(license: LicenseRecord, email: string, options: OpenOptions = {}): Promise<OpenedSession> {
    return this.openAt(await this.place(license, options), email);
  }

  /**
   * Takes the next place in the licence's pool for a session about to open. Each pool keeps its
   * newest places: the verified
   * sessions MAX_SESSIONS_PER_LICENSE, the pending ones theirs apart, so key-only sign-ins never
   * end (nor count against) a session that passed the factor, and those of browsers not
   * remembered never end a remembered browser's.
   */
  async place(license: LicenseRecord, options: OpenOptions = {}): Promise<SessionPlace> {
    const { pool, keep } = poolOf(options);
    const { number, salt } = await this.sessions.takePlace(license.keyHash, pool);
    return { license, options, pool, number, salt, keep };
  }

  /**
   * Opens a session for a licence whose pool's count was read with it (sign-in): at the place after
   * the `counted` ones, counted in the session's own write (no call of its own), or, if another
   * sign-in counted that place first, at the next place taken.
   */
  async openAfter(
    license: LicenseRecord,
    counted: PoolCount | null,
    email: string,
    options: OpenOptions = {},
  ): Promise<OpenedSession> {
    const { pool, keep } = poolOf(options);
    const number = (counted?.places ?? 0) + 1;
    // A pool's salt is drawn at its first place: here, if this place is its first.
    const salt = counted?.salt ?? randomUUID();
    return this.openAt({ license, options, pool, keep, number, salt, uncounted: true }, email);
  }

  /**
   * Opens the session of a place, written with the end of the session `keep` places before it: the
   * cap holds however many sign-ins run at once.
   */
  async openAt(taken: SessionPlace, email: string): Promise<OpenedSession> {
    const { license, options } = taken;
    const now = this.clock.now();
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt =
      issuedAt +
      (options.secondFactorPending ? SECOND_FACTOR.pendingLifetimeSeconds : SESSION_LIFETIME_SECONDS);
    let place = taken;
    let sessionId = this.sessionIdOf(place, place.number);
    for (let tries = 1; ; tries++) {
      const opened = await this.sessions.create(
        {
          sessionId,
          licenseKeyHash: license.keyHash,
          role: license.licenseType,
          email,
          createdAt: now.toISOString(),
          expiresAt,
          ...(options.secondFactorPending ? { secondFactorPending: true } : {}),
          ...(options.secondFactorAt ? { secondFactorAt: options.secondFactorAt } : {}),
          ...(options.deviceId ? { deviceId: options.deviceId } : {}),
        },
        place.number > place.keep ? this.sessionIdOf(place, place.number - place.keep) : null,
        place.uncounted ? { pool: place.pool, number: place.number, salt: place.salt } : undefined,
      );
      if (opened) break;
      // Counted first by another sign-in, or ended before it was written (`keep` later sign-ins of
      // the pool finished first): a new place.
      if (tries >= PLACE_TRIES) throw new Error('Session non ouverte : sa place a été reprise');
      place = await this.place(license, options);
      sessionId = this.sessionIdOf(place, place.number);
    }
    // The licence's hash rides in the token (signed, so the client cannot change it) so that a
    // protected request reads the session and the licence at once instead of one after the other.
    // It is an HMAC under a server key: it reveals nothing of the key and opens nothing by itself.
    // The e-mail rides along for the same reason: a member's list is read ahead by it, and used only
    // if the owner re-read with the session is that e-mail (route-handler.ts, early reads).
    const token = await new SignJWT({
      role: license.licenseType,
      [LICENSE_CLAIM]: license.keyHash,
      [EMAIL_CLAIM]: email,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sessionId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(await sessionKeyOf(this.keys.sessionSigningKey));
    return { sessionId, token, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /**
   * The id of the session at a place of a pool: a keyed hash (server key), as unguessable as a
   * random one, that the session `keep` places later computes to end it without reading anything.
   */
  private sessionIdOf(place: SessionPlace, number: number): string {
    const pool = place.pool.kind === 'verified' ? 'verified' : `pending:${place.pool.deviceId ?? '-'}`;
    return createHmac('sha256', this.keys.sessionSigningKey)
      .update(`session\n${place.license.keyHash}\n${pool}\n${place.salt}\n${number}`)
      .digest('base64url');
  }
}
