import { SECOND_FACTOR } from '../../../shared/constants';
import { InvalidSecondFactorError, TooManySecondFactorAttemptsError } from '../core/errors';
import { findLawyerOfLicense } from '../directory/members';
import type { SessionContext } from '../identity/sessions';
import { nowSecondsOf, type SecondFactorDeps } from './context';
import { codesLockedEmail } from './emails';
import type { AttemptPool, RememberedDevices, ReservedCode, SecondFactorAttempts } from './ports';

/**
 * The count of second-factor codes, per pool: a licence's browsers not remembered share one, each
 * remembered browser has its own, so wrong codes sent from elsewhere never lock the owner's
 * remembered browser out. Every code is counted before it is looked at; a wrong one keeps its
 * place until the window ends, a right one gives its place back: no more than
 * `codeThrottle.maxFailures` wrong codes are ever evaluated per pool and window, however many
 * arrive at once. The wrong code that locks the shared pool e-mails the licence's owner.
 */
export class CodeThrottle {
  private readonly attempts: SecondFactorAttempts;
  private readonly devices: RememberedDevices;

  constructor(private readonly deps: SecondFactorDeps) {
    this.attempts = deps.attempts;
    this.devices = deps.devices;
  }

  /**
   * Runs `check` as one counted code of the session's pool: refused at once (429) when the pool
   * is full; a wrong code (`InvalidSecondFactorError`) is kept, anything else gives its place back.
   */
  async counted<T>(session: SessionContext, check: () => Promise<T>): Promise<T> {
    const pool = await this.poolOf(session);
    const { maxFailures, windowSeconds } = SECOND_FACTOR.codeThrottle;
    const reserved = await this.attempts.reserve(
      pool,
      nowSecondsOf(this.deps.clock),
      maxFailures,
      windowSeconds,
    );
    if (!reserved) throw new TooManySecondFactorAttemptsError();
    let result: T;
    try {
      result = await check();
    } catch (error) {
      if (error instanceof InvalidSecondFactorError) await this.wrong(session, pool, reserved);
      else await this.attempts.release(pool, reserved).catch(() => undefined);
      throw error;
    }
    await this.attempts.release(pool, reserved);
    return result;
  }

  /** The pool of a session: its remembered browser's, if it is still remembered, else the shared one. */
  private async poolOf(session: SessionContext): Promise<AttemptPool> {
    const keyHash = session.licenseKeyHash;
    if (session.deviceId === null) return { keyHash, deviceId: null };
    const device = await this.devices.get(keyHash, session.deviceId, nowSecondsOf(this.deps.clock));
    return { keyHash, deviceId: device ? device.deviceId : null };
  }

  private async wrong(session: SessionContext, pool: AttemptPool, reserved: ReservedCode): Promise<void> {
    const wrongCodes = await this.attempts.markWrong(pool, reserved);
    // Exactly one request sees the count reach the limit: the owner hears of it once per window.
    if (pool.deviceId === null && wrongCodes === SECOND_FACTOR.codeThrottle.maxFailures)
      await this.tellOwner(session, wrongCodes).catch((error: Error) =>
        this.deps.logger.error('E-mail de blocage des codes non envoyé', { errorName: error.name }),
      );
  }

  /** E-mails the licence's owner that its codes are locked, and how to change its key. */
  private async tellOwner(session: SessionContext, wrongCodes: number): Promise<void> {
    const { license } = session;
    const lawyer =
      license.licenseType === 'admin' ? null : await findLawyerOfLicense(this.deps.lawyers, license);
    const to = license.userEmail ?? lawyer?.email ?? null;
    this.deps.logger.warn('Codes du second facteur bloqués', {
      licenseType: license.licenseType,
      ownerWarned: to !== null && this.deps.mail !== undefined,
    });
    if (to === null || !this.deps.mail) return;
    await this.deps.mail.mailer.send(
      codesLockedEmail({
        to,
        wrongCodes,
        at: this.deps.clock.now(),
        minutes: SECOND_FACTOR.codeThrottle.windowSeconds / 60,
        admin: license.licenseType === 'admin',
      }),
    );
  }
}
