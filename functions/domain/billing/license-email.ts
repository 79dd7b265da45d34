import { MESSAGES } from '../../../shared/messages';
import type { LicenseEmailResent } from '../../../shared/schemas/directory';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { ConflictError, NotFoundError, TooManyAttemptsError } from '../core/errors';
import type { Clock, Logger, Mailer } from '../core/ports';
import { type AuditActor, type AuditTrail, auditTarget } from '../directory/audit';
import type { Lawyers } from '../directory/ports';
import type { Licenses } from '../identity/ports';
import { licenseKeyResentEmail } from './emails';
import { licenseMailTags } from './undelivered-mail';

/** One resend per licence in this interval: an admin's double click or impatience sends one e-mail. */
export const LICENSE_EMAIL_RESEND_INTERVAL_MS = 5 * 60 * 1000;

export interface LicenseEmailResendDependencies {
  readonly lawyers: Pick<Lawyers, 'getById' | 'markLicenseEmail'>;
  readonly licenses: Pick<
    Licenses,
    'getByHash' | 'markLicenseEmail' | 'claimLicenseEmailResend' | 'releaseLicenseEmailResend'
  >;
  readonly audit: Pick<AuditTrail, 'joinedWrite'>;
  readonly vault: LicenseKeyVault;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The site's public origin (`https://…`, no trailing slash): the e-mail's sign-in link. */
  readonly publicUrl: string;
}

/**
 * The admin sends a lawyer's licence key again to the licence's address (after SES reported the
 * first one undelivered, say). Tagged like the first, so a new bounce marks the licence again.
 */
export class LicenseEmailResend {
  constructor(private readonly deps: LicenseEmailResendDependencies) {}

  async resend(lawyerId: string, actor: AuditActor): Promise<LicenseEmailResent> {
    const lawyer = await this.deps.lawyers.getById(lawyerId);
    if (!lawyer) throw new NotFoundError(MESSAGES.directory.lawyerNotFound);
    const license = lawyer.licenseKeyHash ? await this.deps.licenses.getByHash(lawyer.licenseKeyHash) : null;
    if (!license) throw new ConflictError(MESSAGES.licenseEmail.noLicense);
    const to = license.userEmail;
    if (!to) throw new ConflictError(MESSAGES.licenseEmail.noAddress);

    const now = this.deps.clock.now();
    const claimedAt = now.toISOString();
    const notBefore = new Date(now.getTime() - LICENSE_EMAIL_RESEND_INTERVAL_MS).toISOString();
    if (!(await this.deps.licenses.claimLicenseEmailResend(license.keyHash, claimedAt, notBefore)))
      throw new TooManyAttemptsError(MESSAGES.licenseEmail.tooSoon);
    try {
      await this.deps.mailer.send({
        ...licenseKeyResentEmail({
          to,
          licenseKey: this.deps.vault.decrypt(license.keyCiphertext),
          loginUrl: `${this.deps.publicUrl}/login`,
        }),
        tags: licenseMailTags(license.keyHash),
      });
    } catch (error) {
      // Not sent: the admin may try again at once.
      await this.deps.licenses.releaseLicenseEmailResend(license.keyHash, claimedAt).catch(() => undefined);
      throw error;
    }

    await this.deps.licenses.markLicenseEmail(license.keyHash, null, claimedAt);
    // The card's mark cleared and the resend on the trail, together.
    await this.deps.lawyers.markLicenseEmail(lawyer.id, null, claimedAt, [
      this.deps.audit.joinedWrite(actor, 'license.email.resend', auditTarget.lawyer(lawyer)),
    ]);
    // Neither the key nor the address goes to the logs.
    this.deps.logger.info('Clé de licence renvoyée par e-mail', { lawyerId: lawyer.id });
    return { sentTo: to };
  }
}
