import { createHmac } from 'node:crypto';

import { SIGN_IN_THROTTLE } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { PortalLinkReply } from '../../../shared/schemas/billing';
import { TooManyAttemptsError } from '../core/errors';
import type { Clock, Logger, Mailer } from '../core/ports';
import type { Licenses, SignInAttempts } from '../identity/ports';
import { portalLinkEmail } from './emails';
import type { Payments, Subscriptions } from './ports';

/** Portal e-mails one address may receive, per window. */
export const PORTAL_EMAILS = { perAddress: 3, windowSeconds: 60 * 60 } as const;

/**
 * Where a portal-link request goes once answered: the sender function, invoked asynchronously in
 * AWS; a task of the same process locally and in tests.
 */
export interface PortalLinkQueue {
  send(email: string): Promise<void>;
}

/** Keyed hashes of client addresses and e-mail addresses: never stored in clear. */
const keyedHash = (key: Uint8Array, purpose: string, value: string) =>
  createHmac('sha256', key).update(`${purpose}:${value}`).digest('base64url');

export interface PortalLinkDependencies {
  readonly attempts: Pick<SignInAttempts, 'count'>;
  readonly licenseHashKey: Uint8Array;
  readonly clock: Clock;
  readonly queue: PortalLinkQueue;
}

/**
 * 'Gérer mon abonnement' on the sign-in page, for a firm that cannot sign in: the reply is the
 * same, and sent in the same time, whatever the e-mail, since nothing about it is looked at before
 * the reply (the sender does it after). Requests are counted per client like sign-in attempts
 * (their own counter).
 */
export class PortalLinkService {
  constructor(private readonly deps: PortalLinkDependencies) {}

  /** @throws TooManyAttemptsError past the sign-in throttle's lock (429, its message shown by the form). */
  async request(email: string, clientAddress: string): Promise<PortalLinkReply> {
    const nowSeconds = Math.floor(this.deps.clock.now().getTime() / 1000);
    const counted = await this.deps.attempts.count(
      keyedHash(this.deps.licenseHashKey, 'portal-link', clientAddress),
      nowSeconds,
      SIGN_IN_THROTTLE.windowSeconds,
      SIGN_IN_THROTTLE.lockAfter,
    );
    if (counted.outcome !== 'counted') throw new TooManyAttemptsError(MESSAGES.login.tooManyAttempts);
    await this.deps.queue.send(email);
    return { message: MESSAGES.subscription.portalLinkSent };
  }
}

export interface PortalLinkSenderDependencies {
  readonly attempts: Pick<SignInAttempts, 'count'>;
  readonly subscriptions: Pick<Subscriptions, 'billingOfEmail' | 'billingOfLicense'>;
  readonly licenses: Pick<Licenses, 'listByUserEmail'>;
  readonly licenseHashKey: Uint8Array;
  readonly payments: Payments;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly publicUrl: string;
}

/**
 * After the reply: a portal session of the Stripe customer behind the licences of an e-mail, sent
 * to that e-mail only, and to one address no more than `PORTAL_EMAILS.perAddress` times a window
 * (someone asking on a victim's behalf cannot flood his inbox).
 */
export class PortalLinkSender {
  constructor(private readonly deps: PortalLinkSenderDependencies) {}

  async send(email: string): Promise<void> {
    const customerId = await this.customerOf(email);
    if (!customerId) return;
    const sent = await this.deps.attempts.count(
      keyedHash(this.deps.licenseHashKey, 'portal-email', email.trim().toLowerCase()),
      Math.floor(this.deps.clock.now().getTime() / 1000),
      PORTAL_EMAILS.windowSeconds,
      PORTAL_EMAILS.perAddress,
    );
    if (sent.outcome !== 'counted') {
      this.deps.logger.warn('Lien du portail client non envoyé : trop de demandes pour cette adresse');
      return;
    }
    const portal = await this.deps.payments.createPortalSession(customerId, `${this.deps.publicUrl}/login`);
    await this.deps.mailer.send(portalLinkEmail({ to: email, url: portal.url }));
    this.deps.logger.info('Lien du portail client envoyé');
  }

  /**
   * The Stripe customer of a licence billed to this e-mail: its billing address (the buyer's
   * checkout e-mail), which associating the licence with another e-mail does not change. A billing
   * record written before the billing address was kept falls back to its licence's own e-mail.
   */
  private async customerOf(email: string): Promise<string | null> {
    const { subscriptions } = this.deps;
    const [billed] = await subscriptions.billingOfEmail(email);
    if (billed) return billed.customerId;
    const licenses = await this.deps.licenses.listByUserEmail(email);
    for (const license of licenses) {
      const billing = await subscriptions.billingOfLicense(license.keyHash);
      if (billing && billing.billingEmail === null) return billing.customerId;
    }
    return null;
  }
}
