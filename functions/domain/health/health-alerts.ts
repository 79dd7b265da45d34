import { EMAIL_MESSAGES } from '../../../shared/email-messages';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import type { Clock, Logger, MailMessage, MailPorts } from '../core/ports';
import type { LawyerRecord, Lawyers, WorkflowRecord } from '../directory/ports';
import type { Licenses } from '../identity/ports';
import type { HealthReads, HealthWrites } from './ports';

const TEXTS = HEALTH_MESSAGES.email;

/** The day of a time in the firms' time zone (`yyyy-mm-dd`): alerts and digests count by it. */
export const parisDayOf = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(at);

/** The hour (0-23) of a time in the firms' time zone. */
const parisHourOf = (at: Date) =>
  Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', hourCycle: 'h23' }).format(
      at,
    ),
  );

/** The daily digest leaves at the first run from this hour on (Paris time). */
export const DIGEST_HOUR = 7;

const body = (...paragraphs: readonly string[]) =>
  [EMAIL_MESSAGES.greeting, ...paragraphs, EMAIL_MESSAGES.signOff.join('\n')].join('\n\n');

export interface HealthAlertsDependencies {
  readonly health: Pick<HealthReads, 'settings' | 'longestStreaks'>;
  /** The claims that send an alert or a digest once. */
  readonly claims: Pick<HealthWrites, 'claimAlert' | 'claimDigest'>;
  readonly lawyers: Pick<Lawyers, 'findByEmail'>;
  readonly licenses: Pick<Licenses, 'getByHash'>;
  readonly mail: MailPorts;
  /** The admin's alert address set at deployment; null: none (then only /admin/settings' one). */
  readonly adminAlertEmail: string | null;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A lawyer's alerts go to the address he reads: his main e-mail, else his (Google) e-mail. */
export const alertAddressOf = (lawyer: Pick<LawyerRecord, 'email' | 'mainEmail'>) =>
  lawyer.mainEmail.trim() || lawyer.email;

/**
 * The health e-mails, through the product's mailer (SES in AWS, the outbox locally): when an
 * automation is paused, one to the admin (the address of /admin/settings, else the deployment's;
 * none when neither is set, which /admin/settings warns about) and one to its lawyer's main e-mail
 * (not the Google mailbox the assistant processes), at most one of each per automation per day (a conditional claim before
 * sending: a lost send is not retried, a duplicate never leaves); and the admin's daily digest.
 */
export class HealthAlerts {
  constructor(private readonly deps: HealthAlertsDependencies) {}

  async paused(
    workflow: Pick<WorkflowRecord, 'id' | 'name' | 'lawyerEmail'>,
    pause: { readonly failures: number; readonly lastMessage: string; readonly httpStatus: number | null },
  ): Promise<void> {
    const now = this.deps.clock.now();
    if (!(await this.deps.claims.claimAlert(workflow.id, parisDayOf(now), now))) {
      this.deps.logger.info('Alerte déjà envoyée aujourd’hui pour cette automatisation', {
        workflowId: workflow.id,
      });
      return;
    }
    const [settings, member] = await Promise.all([
      this.deps.health.settings(),
      this.member(workflow.lawyerEmail),
    ]);
    const site = this.deps.mail.publicUrl();
    const message = (to: string, path: string): MailMessage => ({
      to,
      subject: TEXTS.pausedSubject(workflow.name),
      text: body(
        TEXTS.paused(workflow.name, pause.failures),
        [
          TEXTS.lastError(pause.lastMessage),
          ...(pause.httpStatus === 404 ? [HEALTH_MESSAGES.inactiveHint] : []),
        ].join('\n'),
        TEXTS.link(`${site}${path}`),
        TEXTS.oncePerDay,
      ),
    });
    const admin = this.adminAddress(settings.alertEmail);
    await this.sendAll([
      ...(admin ? [message(admin, '/admin/workflows')] : []),
      message(member.address, member.workflowsPath),
    ]);
  }

  /**
   * The admin's daily digest, when he asked for it: the automations in failure, once a day from
   * `DIGEST_HOUR` on, and only when there are some.
   */
  async dailyDigest(): Promise<void> {
    const now = this.deps.clock.now();
    if (parisHourOf(now) < DIGEST_HOUR) return;
    const settings = await this.deps.health.settings();
    if (!settings.dailyDigest) return;
    const { longest, total } = await this.deps.health.longestStreaks();
    if (total === 0) return;
    const admin = this.adminAddress(settings.alertEmail);
    if (!admin) return;
    if (!(await this.deps.claims.claimDigest(parisDayOf(now), now))) return;
    // The longest streaks first, as many as the dashboard lists: in an outage every automation
    // of the platform is failing, and one line each made an e-mail nobody reads to its end.
    const lines = longest.map((item) =>
      TEXTS.digestLine(
        item.workflowName,
        HEALTH_MESSAGES.states.failing,
        item.consecutiveFailures,
        item.lastFailureMessage ?? '',
      ),
    );
    if (total > longest.length) lines.push(TEXTS.digestMore(total - longest.length));
    await this.sendAll([
      {
        to: admin,
        subject: TEXTS.digestSubject(total),
        text: body(
          [TEXTS.digestIntro, ...lines].join('\n'),
          TEXTS.link(`${this.deps.mail.publicUrl()}/admin/settings`),
        ),
      },
    ]);
  }

  /** The admin's address: /admin/settings' one, else the deployment's; null (logged) when neither. */
  private adminAddress(stored: string | null): string | null {
    const address = stored ?? this.deps.adminAlertEmail;
    if (!address) this.deps.logger.warn('Alerte administrateur sans destinataire : aucune adresse d’alerte');
    return address;
  }

  /**
   * Where a workflow's owner reads his alert (his main e-mail) and sees his automations (the
   * lawyer's or the notary's page, by his licence).
   */
  private async member(email: string): Promise<{ address: string; workflowsPath: string }> {
    const lawyer = await this.deps.lawyers.findByEmail(email);
    const license = lawyer?.licenseKeyHash ? await this.deps.licenses.getByHash(lawyer.licenseKeyHash) : null;
    return {
      address: lawyer ? alertAddressOf(lawyer) : email,
      workflowsPath: license?.licenseType === 'notary' ? '/notary/workflows' : '/lawyer/workflows',
    };
  }

  private async sendAll(messages: readonly MailMessage[]): Promise<void> {
    const results = await Promise.allSettled(messages.map((message) => this.deps.mail.mailer.send(message)));
    for (const result of results) {
      if (result.status === 'rejected') {
        this.deps.logger.error('Alerte de santé non envoyée', {
          errorName: result.reason instanceof Error ? result.reason.name : 'inconnu',
        });
      }
    }
  }
}
