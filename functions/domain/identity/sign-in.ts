import { createHmac } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

import { SIGN_IN_THROTTLE } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { Role, VerifyLicenseReply } from '../../../shared/schemas/session';
import type { AppKeys } from '../../security/app-keys';
import { createLicenseKeyVault } from '../../security/license-key-vault';
import type { Clock } from '../core/ports';
import { type DeviceCookieClaims, readDeviceCookie } from './device-cookie';
import type {
  Licenses,
  MemberLookup,
  MemberProfile,
  ReservedAttempt,
  SecondFactorRequirement,
  SignInAttempts,
  SignInItems,
} from './ports';
import { secondFactorStepOf } from './second-factor-step';
import type { SessionOpener } from './session-opener';

/** The outcome of a sign-in attempt: the reply, and whether the client is refused for trying too often. */
export interface SignInOutcome {
  readonly throttled: boolean;
  readonly reply: VerifyLicenseReply;
}

/**
 * How an attempt waits for the attempts of its client still being evaluated (milliseconds): they
 * end within one read of the licence, so the first pauses are short; past `maxMs` it is refused.
 */
const IN_FLIGHT_WAIT = { firstMs: 20, longestMs: 250, maxMs: 5_000 } as const;

/** Display name rule of spec §5. */
export function displayNameOf(role: Role, lawyer: MemberProfile | null): string {
  if (role === 'admin') return 'Administrateur';
  if (role === 'lawyer' || role === 'notary')
    return lawyer ? `${lawyer.firstName} ${lawyer.lastName}` : 'Avocat';
  return 'Utilisateur';
}

export interface SignInServiceDependencies {
  readonly licenses: Pick<Licenses, 'getForSignIn'>;
  readonly members: Pick<MemberLookup, 'memberOf'>;
  readonly attempts: SignInAttempts;
  /** Opens the session of a right key. */
  readonly sessions: Pick<SessionOpener, 'place' | 'openAt'>;
  readonly keys: AppKeys;
  readonly clock: Clock;
  readonly secondFactorSettings: SecondFactorRequirement;
}

/**
 * verify-license: checks a licence key and opens a session.
 *
 * Attempts are counted per client address over a fixed window, each one before its key is looked
 * at; a right key gives its own attempt back. After a few wrong keys the replies are slowed down;
 * once the window's wrong keys reach the lock the client is refused, with one reply whatever the
 * key (so a refused client learns nothing about the keys it tries). Wrong keys stay counted until
 * their window ends, so a client they locked stays locked till then; a right key never erases them.
 *
 * A licence that must pass a second factor gets a "second factor pending" session instead, which
 * only the second-factor calls accept; `SecondFactorService` completes it (second-factor.ts).
 */
export class SignInService {
  private readonly licenses: Pick<Licenses, 'getForSignIn'>;
  private readonly members: Pick<MemberLookup, 'memberOf'>;
  private readonly attempts: SignInAttempts;
  private readonly sessions: Pick<SessionOpener, 'place' | 'openAt'>;
  private readonly keys: AppKeys;
  private readonly clock: Clock;
  private readonly secondFactorSettings: SecondFactorRequirement;

  constructor(deps: SignInServiceDependencies) {
    this.licenses = deps.licenses;
    this.members = deps.members;
    this.attempts = deps.attempts;
    this.sessions = deps.sessions;
    this.keys = deps.keys;
    this.clock = deps.clock;
    this.secondFactorSettings = deps.secondFactorSettings;
  }

  /**
   * @param deviceCookie the device cookie the browser sent, if any: a remembered browser's pending
   * session goes to that browser's own pool, out of reach of sign-ins made elsewhere.
   */
  async verify(licenseKey: string, clientAddress: string, deviceCookie?: string): Promise<SignInOutcome> {
    const client = this.clientHash(clientAddress);
    // Reserved before the key is looked at, so that parallel attempts cannot all pass the check.
    const reserved = await this.reserve(client);
    if (reserved === null) {
      // Locked by its wrong keys, which stay counted until the window ends: one reply whatever the
      // key, so a locked client learns nothing about the keys it tries.
      return { throttled: true, reply: { valid: false, error: MESSAGES.login.tooManyAttempts } };
    }
    // Slowed down by the wrong keys already found, not by the attempts still being evaluated: the
    // right keys of colleagues signing in at once from one address do not hold each other up.
    if (reserved.earlierWrong >= SIGN_IN_THROTTLE.slowAfter) {
      const steps = reserved.earlierWrong - SIGN_IN_THROTTLE.slowAfter + 1;
      await this.clock.sleep(Math.min(steps * SIGN_IN_THROTTLE.delayStepMs, SIGN_IN_THROTTLE.maxDelayMs));
    }

    const vault = createLicenseKeyVault(this.keys);
    // The licence, its second factor and the claim of the profile holding its key: one read.
    let found: SignInItems | null;
    try {
      found = await this.licenses.getForSignIn(vault.hashes(licenseKey));
    } catch (error) {
      // Not evaluated: its attempt goes back rather than holding a place until the window ends.
      await this.attempts.release(client, reserved).catch(() => undefined);
      throw error;
    }
    if (!found) {
      await this.attempts.markWrong(client, reserved);
      return { throttled: false, reply: { valid: false, error: MESSAGES.login.invalidKey } };
    }
    // A right key does not count against its client (the wrong ones before it still do). Its
    // attempt is given back beside the profile's read and the session's place, the session's first
    // step: one round trip less, and the place it held is free as soon as the key is known right.
    // The cookie read first (no store call), so that the place is asked for beside the release.
    const device = await readDeviceCookie(this.keys.sessionSigningKey, deviceCookie, this.clock.now());
    const [, reply] = await Promise.all([this.attempts.release(client, reserved), this.open(found, device)]);
    return { throttled: false, reply };
  }

  /**
   * One attempt of the client's window, or null when its wrong keys locked it. When every place of
   * the window is held by attempts still being evaluated, it waits for them to end rather than
   * refusing: a right key is never refused because others are in flight, and no more wrong keys
   * are evaluated than the lock allows. Waits for real requests, hence real time.
   */
  private async reserve(client: string): Promise<ReservedAttempt | null> {
    const waitUntil = Date.now() + IN_FLIGHT_WAIT.maxMs;
    for (
      let pause: number = IN_FLIGHT_WAIT.firstMs;
      ;
      pause = Math.min(pause * 2, IN_FLIGHT_WAIT.longestMs)
    ) {
      const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
      const reservation = await this.attempts.reserve(
        client,
        nowSeconds,
        SIGN_IN_THROTTLE.windowSeconds,
        SIGN_IN_THROTTLE.lockAfter,
      );
      if (reservation.outcome === 'reserved') return reservation.attempt;
      if (reservation.outcome === 'locked') return null;
      // Attempts still in flight after seconds are not ending (the store is failing): refused.
      if (Date.now() + pause > waitUntil) return null;
      await delay(pause);
    }
  }

  /**
   * The reply to a right key: a session for an active licence, with what it must ask next. The
   * profile and the session's place in its pool are read side by side, then the session written.
   */
  private async open(found: SignInItems, device: DeviceCookieClaims | null): Promise<VerifyLicenseReply> {
    const { license } = found;
    if (!license.isActive) return { valid: false, error: MESSAGES.session.licenseInactive };
    const secondFactor = secondFactorStepOf(found.secondFactor, this.secondFactorSettings, license);
    // The cookie's signature is enough to choose the pool; whether the browser is still remembered
    // is checked where it matters, when its codes are counted.
    const deviceId = device?.licenseKeyHash === license.keyHash ? device.deviceId : null;
    const [lawyer, place] = await Promise.all([
      license.licenseType === 'admin' ? null : this.members.memberOf(license, found.boundLawyerId),
      this.sessions.place(license, { secondFactorPending: secondFactor !== null, deviceId }),
    ]);
    const userEmail = lawyer?.email ?? license.userEmail ?? '';
    const session = await this.sessions.openAt(place, userEmail);
    return {
      valid: true,
      licenseType: license.licenseType,
      userEmail,
      displayName: displayNameOf(license.licenseType, lawyer),
      token: session.token,
      expiresAt: session.expiresAt,
      ...(secondFactor ? { secondFactor } : {}),
    };
  }

  /** Client addresses are kept only as a keyed hash. */
  private clientHash(clientAddress: string): string {
    return createHmac('sha256', this.keys.licenseHashKey)
      .update(`client:${clientAddress}`)
      .digest('base64url');
  }
}
