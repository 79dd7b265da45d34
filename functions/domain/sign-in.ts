import { createHmac } from 'node:crypto';

import { SIGN_IN_THROTTLE } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';
import type { Role, VerifyLicenseReply } from '../../shared/schemas/session';
import { type LawyerRecord, LawyerRepository } from '../data/lawyers';
import { type LicenseRecord, LicenseRepository } from '../data/licenses';
import { SignInAttemptRepository } from '../data/sign-in-attempts';
import type { Table } from '../data/table';
import type { Clock } from '../runtime/dependencies';
import type { AppKeys } from '../security/app-keys';
import { createLicenseKeyVault } from '../security/license-key-vault';
import { SessionService } from './sessions';

/** The outcome of a sign-in attempt: the reply, and whether the client is refused for trying too often. */
export interface SignInOutcome {
  readonly throttled: boolean;
  readonly reply: VerifyLicenseReply;
}

/** Display name rule of spec §5. */
export function displayNameOf(role: Role, lawyer: LawyerRecord | null): string {
  if (role === 'admin') return 'Administrateur';
  if (role === 'lawyer' || role === 'notary')
    return lawyer ? `${lawyer.firstName} ${lawyer.lastName}` : 'Avocat';
  return 'Utilisateur';
}

/**
 * Lawyer look-up of spec §5: first by licence key, then by the licence's e-mail.
 */
export async function findLawyerOfLicense(lawyers: LawyerRepository, license: LicenseRecord) {
  return (
    (await lawyers.findByLicenseHash(license.keyHash)) ??
    (license.userEmail ? await lawyers.findByEmail(license.userEmail) : null)
  );
}

/**
 * verify-license: checks a licence key and opens a session.
 *
 * Wrong keys are counted per client: after a few the replies are slowed down, after more the
 * client is refused until its window ends, with one reply whatever the key (so a refused client
 * learns nothing about the keys it tries).
 */
export class SignInService {
  private readonly licenses: LicenseRepository;
  private readonly lawyers: LawyerRepository;
  private readonly attempts: SignInAttemptRepository;
  private readonly sessions: SessionService;

  constructor(
    table: Table,
    private readonly keys: AppKeys,
    private readonly clock: Clock,
  ) {
    this.licenses = new LicenseRepository(table);
    this.lawyers = new LawyerRepository(table);
    this.attempts = new SignInAttemptRepository(table);
    this.sessions = new SessionService(table, keys, clock);
  }

  async verify(licenseKey: string, clientAddress: string): Promise<SignInOutcome> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const client = this.clientHash(clientAddress);
    const { failures } = await this.attempts.get(client, nowSeconds);
    if (failures >= SIGN_IN_THROTTLE.lockAfter) {
      return { throttled: true, reply: { valid: false, error: MESSAGES.login.tooManyAttempts } };
    }
    if (failures >= SIGN_IN_THROTTLE.slowAfter) {
      const steps = failures - SIGN_IN_THROTTLE.slowAfter + 1;
      await this.clock.sleep(Math.min(steps * SIGN_IN_THROTTLE.delayStepMs, SIGN_IN_THROTTLE.maxDelayMs));
    }

    const vault = createLicenseKeyVault(this.keys);
    const license = await this.licenses.getByHash(vault.hash(licenseKey));
    if (!license) {
      await this.attempts.recordFailure(client, nowSeconds, SIGN_IN_THROTTLE.windowSeconds);
      return { throttled: false, reply: { valid: false, error: MESSAGES.login.invalidKey } };
    }
    if (!license.isActive) {
      return { throttled: false, reply: { valid: false, error: MESSAGES.session.licenseInactive } };
    }

    const lawyer = license.licenseType === 'admin' ? null : await findLawyerOfLicense(this.lawyers, license);
    const userEmail = lawyer?.email ?? license.userEmail ?? '';
    const session = await this.sessions.open(license, userEmail);
    if (failures > 0) await this.attempts.reset(client);
    return {
      throttled: false,
      reply: {
        valid: true,
        licenseType: license.licenseType,
        userEmail,
        displayName: displayNameOf(license.licenseType, lawyer),
        token: session.token,
        expiresAt: session.expiresAt,
      },
    };
  }

  /** Client addresses are kept only as a keyed hash. */
  private clientHash(clientAddress: string): string {
    return createHmac('sha256', this.keys.licenseHashKey)
      .update(`client:${clientAddress}`)
      .digest('base64url');
  }
}
