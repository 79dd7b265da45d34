import { createHmac } from 'node:crypto';

import { SIGN_IN_THROTTLE } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { Role, VerifyLicenseReply } from '../../../shared/schemas/session';
import type { AppKeys } from '../../security/app-keys';
import { createLicenseKeyVault } from '../../security/license-key-vault';
import type { Clock } from '../core/ports';
import type {
  Licenses,
  MemberLookup,
  MemberProfile,
  SecondFactorRequirement,
  SignInAttempts,
  SignInItems,
} from './ports';
import { secondFactorStepOf } from './second-factor-step';
import type { SessionService } from './sessions';

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
  readonly sessions: Pick<SessionService, 'open'>;
  readonly keys: AppKeys;
  readonly clock: Clock;
  readonly secondFactorSettings: SecondFactorRequirement;
}

/**
 * verify-license: each attempt counts for its client before its key is read, wrong keys slow the
 * replies then lock the client out with one reply whatever the key, and a right key gives its own
 * attempt back. A licence with a second factor gets a session only the second-factor calls accept.
 */
export class SignInService {
  private readonly licenses: Pick<Licenses, 'getForSignIn'>;
  private readonly members: Pick<MemberLookup, 'memberOf'>;
  private readonly attempts: SignInAttempts;
  private readonly sessions: Pick<SessionService, 'open'>;
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

  async verify(licenseKey: string, clientAddress: string): Promise<SignInOutcome> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const client = this.clientHash(clientAddress);
    // Counted before the key is looked at, so that parallel attempts cannot all pass the check.
    const reserved = await this.attempts.reserve(client, nowSeconds, SIGN_IN_THROTTLE.windowSeconds);
    if (reserved.earlier >= SIGN_IN_THROTTLE.lockAfter) {
      // Refused unseen, so it gives its attempt back: kept, it would outlast its request. A burst of
      // colleagues' right keys past the attempts in flight then locked their office for the whole
      // window, each refusal adding to the count that refused the next. A client locked by its
      // wrong keys stays locked: those stay counted until the window ends.
      await this.attempts.release(client, reserved);
      return { throttled: true, reply: { valid: false, error: MESSAGES.login.tooManyAttempts } };
    }
    // Slowed down by the wrong keys already found, not by the attempts still being evaluated: the
    // right keys of colleagues signing in at once from one address do not hold each other up
    // (that wait fed itself under load, every reply waiting for the waits before it). Parallel
    // guesses are still bounded by the lock above, which counts every attempt.
    if (reserved.earlierWrong >= SIGN_IN_THROTTLE.slowAfter) {
      const steps = reserved.earlierWrong - SIGN_IN_THROTTLE.slowAfter + 1;
      await this.clock.sleep(Math.min(steps * SIGN_IN_THROTTLE.delayStepMs, SIGN_IN_THROTTLE.maxDelayMs));
    }

    const vault = createLicenseKeyVault(this.keys);
    // The licence, its second factor and the claim of the profile holding its key: one read.
    const found = await this.licenses.getForSignIn(vault.hashes(licenseKey));
    if (!found) {
      await this.attempts.markWrong(client, reserved);
      return { throttled: false, reply: { valid: false, error: MESSAGES.login.invalidKey } };
    }
    // A right key does not count against its client (the wrong ones before it still do). Its
    // attempt is given back beside the profile's read, the session's first step, rather than
    // before it: one round trip less, and it is no longer held than before, which matters because
    // an attempt in flight counts towards the lock.
    const [, reply] = await Promise.all([this.attempts.release(client, reserved), this.open(found)]);
    return { throttled: false, reply };
  }

  /** The reply to a right key: a session for an active licence, with what it must ask next. */
  private async open(found: SignInItems): Promise<VerifyLicenseReply> {
    const { license } = found;
    if (!license.isActive) return { valid: false, error: MESSAGES.session.licenseInactive };
    const lawyer =
      license.licenseType === 'admin' ? null : await this.members.memberOf(license, found.boundLawyerId);
    const secondFactor = secondFactorStepOf(found.secondFactor, this.secondFactorSettings, license);
    const userEmail = lawyer?.email ?? license.userEmail ?? '';
    const session = await this.sessions.open(license, userEmail, {
      secondFactorPending: secondFactor !== null,
    });
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
