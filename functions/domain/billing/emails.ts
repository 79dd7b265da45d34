import { PRICING, RETENTION_DAYS } from '../../../shared/constants';
import { EMAIL_MESSAGES } from '../../../shared/email-messages';
import type { MailMessage } from '../core/ports';

/**
 * The billing e-mails, in French (texts in `EMAIL_MESSAGES`). They carry the firm's own licence
 * key and nothing else that is secret: no link that signs in, no payment detail.
 */

const TEXTS = EMAIL_MESSAGES;
const DAY_MS = 24 * 60 * 60 * 1000;

const euros = (cents: number) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** French long date (spec §9), in the firm's time zone. */
export const frenchLongDate = (date: Date) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' }).format(date);

/** Paragraphs separated by a blank line, then the sign-off. */
const body = (...paragraphs: readonly (string | readonly string[])[]) =>
  [TEXTS.greeting, ...paragraphs, TEXTS.signOff]
    .map((paragraph) => (typeof paragraph === 'string' ? paragraph : paragraph.join('\n')))
    .join('\n\n');

/**
 * The licence key after the checkout: what was paid today (the licence and the first month,
 * `PRICING.firstPaymentCents`; nothing with a 100 % promo code), then the monthly price.
 */
export function licenseKeyEmail(input: {
  to: string;
  licenseKey: string;
  loginUrl: string;
  amountPaidCents: number | null;
}): MailMessage {
  const texts = TEXTS.licenseKey;
  const paidToday =
    input.amountPaidCents === 0
      ? texts.free
      : texts.paid(
          euros(input.amountPaidCents ?? PRICING.firstPaymentCents),
          euros(PRICING.initialPaymentCents),
          euros(PRICING.monthlySubscriptionCents),
        );
  return {
    to: input.to,
    subject: texts.subject,
    text: body(paidToday, texts.key(input.licenseKey), texts.signIn(input.loginUrl), texts.keepSafe, [
      texts.pricing(euros(PRICING.monthlySubscriptionCents), PRICING.vatNotice),
      texts.noCommitment,
    ]),
  };
}

/** The licence key sent again by the admin (the first e-mail did not arrive): the key, how to sign in. */
export function licenseKeyResentEmail(input: {
  to: string;
  licenseKey: string;
  loginUrl: string;
}): MailMessage {
  const texts = TEXTS.licenseKeyResent;
  const key = TEXTS.licenseKey;
  return {
    to: input.to,
    subject: texts.subject,
    text: body(
      texts.intro,
      key.key(input.licenseKey),
      key.signIn(input.loginUrl),
      key.keepSafe,
      texts.notExpected,
    ),
  };
}

/**
 * The confirmation of a cancellation asked for: the renewal stopped, access until the end of the
 * paid month, the data kept 30 days after it, and reactivation possible until then.
 */
export function cancellationScheduledEmail(input: { to: string; accessEndsAt: Date }): MailMessage {
  const texts = TEXTS.cancellationScheduled;
  const purgeAfter = new Date(input.accessEndsAt.getTime() + RETENTION_DAYS.afterCancellation * DAY_MS);
  return {
    to: input.to,
    subject: texts.subject,
    text: body(
      [texts.confirmed(frenchLongDate(input.accessEndsAt)), texts.noDebit],
      [
        texts.retention(RETENTION_DAYS.afterCancellation, frenchLongDate(purgeAfter)),
        TEXTS.cancellation.billingRetention(RETENTION_DAYS.billingYears),
      ],
      texts.reactivate(frenchLongDate(input.accessEndsAt)),
    ),
  };
}

/** The end of a subscription (spec §4), with the date the firm's data will be deleted. */
export function cancellationEmail(input: { to: string; canceledAt: Date; purgeAfter: Date }): MailMessage {
  const texts = TEXTS.cancellation;
  return {
    to: input.to,
    subject: texts.subject,
    text: body(
      [texts.confirmed(frenchLongDate(input.canceledAt)), texts.immediate],
      [
        texts.retention(RETENTION_DAYS.afterCancellation, frenchLongDate(input.purgeAfter)),
        texts.billingRetention(RETENTION_DAYS.billingYears),
      ],
      texts.reactivate,
      texts.portal,
    ),
  };
}

/** A customer-portal link asked for from the sign-in page, sent only to the licence's own e-mail. */
export function portalLinkEmail(input: { to: string; url: string }): MailMessage {
  const texts = TEXTS.portalLink;
  return {
    to: input.to,
    subject: texts.subject,
    text: body(texts.intro, texts.link(input.url), texts.notYou),
  };
}
