import type { VerifySecondFactorReply } from '../../../shared/schemas/second-factor';
import type { VerifyLicenseReply } from '../../../shared/schemas/session';
import { findLawyerOfLicense } from '../directory/members';
import type { SessionContext, SessionService } from '../identity/sessions';
import { displayNameOf } from '../identity/sign-in';
import type { Browser, SecondFactorDeps } from './context';
import { RememberedBrowsers } from './remembered-browsers';

/** A session passed its factor: the reply, the device cookie to set, and the session that goes on. */
export interface PassedFactor {
  readonly reply: VerifySecondFactorReply;
  /** `Set-Cookie` value of the browser's device cookie. */
  readonly cookie: string;
  /** The session that goes on: the new full one replacing a pending one, or the same. */
  readonly sessionId: string;
  readonly deviceId: string;
}

/**
 * What passing the factor does, whichever factor passed: a pending session gives way to a full
 * one (as sign-in would have given), a full one records the time of the check (step-up); the
 * browser is remembered (device cookie) and the session carries it.
 */
export class FactorPassing {
  private readonly sessions: SessionService;
  private readonly browsers: RememberedBrowsers;

  constructor(private readonly deps: SecondFactorDeps) {
    this.sessions = deps.sessions;
    this.browsers = new RememberedBrowsers(deps);
  }

  async passed(session: SessionContext, browser: Browser): Promise<PassedFactor> {
    const verifiedAt = this.deps.clock.now().toISOString();
    const { deviceId, cookie } = await this.browsers.remember(session, browser);
    if (!session.secondFactorPending) {
      await this.sessions.markSecondFactor(session.sessionId, verifiedAt, deviceId);
      return { reply: { verifiedAt }, cookie, sessionId: session.sessionId, deviceId };
    }
    await this.sessions.close(session.sessionId);
    const opened = await this.deps.opener.open(session.license, session.email, {
      secondFactorAt: verifiedAt,
      deviceId,
    });
    const lawyer =
      session.license.licenseType === 'admin'
        ? null
        : await findLawyerOfLicense(this.deps.lawyers, session.license);
    const reply: VerifyLicenseReply = {
      valid: true,
      licenseType: session.license.licenseType,
      userEmail: session.email,
      displayName: displayNameOf(session.license.licenseType, lawyer),
      token: opened.token,
      expiresAt: opened.expiresAt,
    };
    return { reply: { verifiedAt, session: reply }, cookie, sessionId: opened.sessionId, deviceId };
  }
}

/**
 * A licence's factor changed (enrolled, replaced, removed, reset): every other session ends,
 * pending ones included, and every other remembered browser is forgotten, so nothing opened or
 * trusted before the change outlives it. `keep` names what the change was made from.
 */
export async function factorChanged(
  deps: Pick<SecondFactorDeps, 'sessionRecords' | 'devices'>,
  keyHash: string,
  keep: { readonly sessionId?: string; readonly deviceId?: string | null } = {},
): Promise<void> {
  await Promise.all([
    deps.sessionRecords.deleteByLicense(keyHash, {
      ...(keep.sessionId ? { except: keep.sessionId } : {}),
    }),
    deps.devices.deleteAll(keyHash, {
      ...(keep.deviceId ? { except: keep.deviceId } : {}),
    }),
  ]);
}
