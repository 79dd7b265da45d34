import * as z from 'zod';
import { METRIC, type Metrics } from '../core/metrics';
import type { Clock, Logger } from '../core/ports';
import type { Lawyers } from '../directory/ports';
import type { Licenses } from '../identity/ports';

/**
 * The SES message tags of a licence e-mail: they come back with its bounce or complaint, so the
 * licence is found by its key hash (base64url, a valid tag value) without a look-up by address.
 */
export const LICENSE_MAIL_TAGS = {
  kind: 'mail-kind',
  licenseKind: 'licence-key',
  keyHash: 'licence',
} as const;

export const licenseMailTags = (keyHash: string): Readonly<Record<string, string>> => ({
  [LICENSE_MAIL_TAGS.kind]: LICENSE_MAIL_TAGS.licenseKind,
  [LICENSE_MAIL_TAGS.keyHash]: keyHash,
});

/**
 * What SES publishes to EventBridge for a bounce or a complaint of a send naming the configuration
 * set (detail type 'Email Bounced' / 'Email Complaint Received'; the detail is SES's event record).
 * Only what is used is read; anything else in it passes.
 */
export const SesUndeliveredEvent = z.object({
  'detail-type': z.enum(['Email Bounced', 'Email Complaint Received']),
  detail: z.object({
    eventType: z.enum(['Bounce', 'Complaint']),
    mail: z.object({
      timestamp: z.string(),
      messageId: z.string(),
      tags: z.record(z.string(), z.array(z.string())).default({}),
    }),
    bounce: z.object({ bounceType: z.string(), timestamp: z.string() }).optional(),
    complaint: z.object({ timestamp: z.string() }).optional(),
  }),
});
export type SesUndeliveredEvent = z.infer<typeof SesUndeliveredEvent>;

export type UndeliveredOutcome = 'recorded' | 'not-a-licence-mail' | 'licence-gone';

export interface UndeliveredMailDependencies {
  readonly licenses: Pick<Licenses, 'markLicenseEmail'>;
  readonly lawyers: Pick<Lawyers, 'findByLicenseHash' | 'markLicenseEmail'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/**
 * Records that a licence e-mail did not reach its reader (SES bounce or complaint): the licence,
 * and the lawyer who holds it if one does, are marked 'e-mail non délivré' until the admin sends
 * it again. Idempotent: SES may publish an event twice.
 */
export class UndeliveredMail {
  constructor(private readonly deps: UndeliveredMailDependencies) {}

  async record(event: SesUndeliveredEvent): Promise<UndeliveredOutcome> {
    const { detail } = event;
    const kind = detail.mail.tags[LICENSE_MAIL_TAGS.kind]?.[0];
    const keyHash = detail.mail.tags[LICENSE_MAIL_TAGS.keyHash]?.[0];
    this.deps.metrics.count(detail.eventType === 'Bounce' ? METRIC.emailBounced : METRIC.emailComplained);
    if (kind !== LICENSE_MAIL_TAGS.licenseKind || !keyHash) {
      this.deps.logger.info('E-mail non délivré (hors licence)', { eventType: detail.eventType });
      return 'not-a-licence-mail';
    }
    const at = detail.bounce?.timestamp ?? detail.complaint?.timestamp ?? detail.mail.timestamp;
    const now = this.deps.clock.now().toISOString();
    if (!(await this.deps.licenses.markLicenseEmail(keyHash, at, now))) {
      this.deps.logger.info('E-mail de licence non délivré : licence supprimée entre-temps');
      return 'licence-gone';
    }
    const lawyer = await this.deps.lawyers.findByLicenseHash(keyHash);
    if (lawyer) await this.deps.lawyers.markLicenseEmail(lawyer.id, at, now);
    // Facts only: neither the address nor the hash goes to the logs.
    this.deps.logger.warn('E-mail de licence non délivré', {
      eventType: detail.eventType,
      bounceType: detail.bounce?.bounceType ?? null,
      heldByLawyer: lawyer !== null,
    });
    return 'recorded';
  }
}
