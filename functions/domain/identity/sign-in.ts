import { createHmac } from 'node:crypto';

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
  readonly sessions: Pick<SessionOpener, 'openAfter'>;
  readonly keys: AppKeys;
  readonly clock: Clock;
  readonly secondFactorSettings: SecondFactorRequirement;
}

/** The reply of a client locked by its wrong keys, whatever the key it sent. */
const LOCKED: SignInOutcome = {
  throttled: true,
  reply: { valid: false, error: MESSAGES.login.tooManyAttempts },
};

/**
 * verify-license: checks a licence key and opens a session.
 *
 * Wrong keys are counted per client address over a fixed window; a right key never counts. After a
 * few wrong keys the replies are slowed down; once the window counts the lock's number of wrong
 * keys the client is refused, with one reply whatever the key (so a refused client learns nothing
 * about the keys it tries), until the window ends. Each decision is ordered with the counts of the
 * attempts sent beside it: a wrong key is answered only if its own conditional count took a place
 * under the lock, a right key only if a strongly consistent read of the count, made once its key
 * was found, is under it. So however many keys a client sends at once, no more than the lock's
 * number of wrong ones are answered in a window, and no right key waits for, or is refused
 * because of, the attempts still in flight beside it.
 *
 * A licence that must pass a second factor gets a "second factor pending" session instead, which
 * only the second-factor calls accept; `SecondFactorService` completes it (second-factor.ts).
 */
export class SignInService {
  private readonly licenses: Pick<Licenses, 'getForSignIn'>;
  private readonly members: Pick<MemberLookup, 'memberOf'>;
  private readonly attempts: SignInAttempts;
  private readonly sessions: Pick<SessionOpener, 'openAfter'>;
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
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    // The cookie first (no store call): it names the pending pool read with the licence.
    const device = await readDeviceCookie(this.keys.sessionSigningKey, deviceCookie, this.clock.now());
    const vault = createLicenseKeyVault(this.keys);
    // The licence, its second factor, the claim of the profile holding its key and its session
    // pools' counts: one read.
    const found = await this.licenses.getForSignIn(vault.hashes(licenseKey), device);
    if (!found) {
      const counted = await this.attempts.count(
        client,
        nowSeconds,
        SIGN_IN_THROTTLE.windowSeconds,
        SIGN_IN_THROTTLE.lockAfter,
      );
      if (counted.outcome === 'locked') return LOCKED;
      await this.slowDown(counted.earlier);
      return { throttled: false, reply: { valid: false, error: MESSAGES.login.invalidKey } };
    }
    const { license } = found;
    // The client's count beside the profile's read: a right key is answered under the lock only.
    const [wrongKeys, lawyer] = await Promise.all([
      this.attempts.counted(client, nowSeconds),
      license.isActive && license.licenseType !== 'admin'
        ? this.members.memberOf(license, found.boundLawyerId)
        : null,
    ]);
    if (wrongKeys >= SIGN_IN_THROTTLE.lockAfter) return LOCKED;
    await this.slowDown(wrongKeys);
    return { throttled: false, reply: await this.open(found, lawyer, device) };
  }

  /** Slowed down by the wrong keys counted before, whatever this key: a guess costs time. */
  private async slowDown(earlierWrong: number): Promise<void> {
    if (earlierWrong < SIGN_IN_THROTTLE.slowAfter) return;
    const steps = earlierWrong - SIGN_IN_THROTTLE.slowAfter + 1;
    await this.clock.sleep(Math.min(steps * SIGN_IN_THROTTLE.delayStepMs, SIGN_IN_THROTTLE.maxDelayMs));
  }

  /**
   * The reply to a right key: a session for an active licence, with what it must ask next, written
   * at the place after the pool's count read with the licence (counted in the same write).
   */
  private async open(
    found: SignInItems,
    lawyer: MemberProfile | null,
    device: DeviceCookieClaims | null,
  ): Promise<VerifyLicenseReply> {
    const { license } = found;
    if (!license.isActive) return { valid: false, error: MESSAGES.session.licenseInactive };
    const secondFactor = secondFactorStepOf(found.secondFactor, this.secondFactorSettings, license);
    // The cookie's signature is enough to choose the pool; whether the browser is still remembered
    // is checked where it matters, when its codes are counted.
    const deviceId = device?.licenseKeyHash === license.keyHash ? device.deviceId : null;
    const userEmail = lawyer?.email ?? license.userEmail ?? '';
    const session = await this.sessions.openAfter(
      license,
      secondFactor === null ? found.pools.verified : found.pools.pending,
      userEmail,
      { secondFactorPending: secondFactor !== null, deviceId },
    );
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
