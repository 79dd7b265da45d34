import { createHmac } from 'node:crypto';

import { SIGN_IN_THROTTLE } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { PortalLinkReply } from '../../../shared/schemas/billing';
import { TooManyAttemptsError } from '../core/errors';
import type { Clock, Logger, Mailer } from '../core/ports';
import type { Licenses, SignInAttempts } from '../identity/ports';
import { portalLinkEmail } from './emails';
import type { Payments, Subscriptions } from './ports';

export interface PortalLinkDependencies {
  readonly attempts: Pick<SignInAttempts, 'reserve'>;
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
 * The customer portal for a firm that cannot sign in (licence suspended or cancelled): a portal
 * session of the Stripe customer behind the licences of an e-mail, sent to that e-mail only. The
 * reply is the same whether or not a licence exists, so that it tells nobody which firms are
 * customers; requests are counted per client like sign-in attempts (their own counter).
 */
export class PortalLinkService {
  constructor(private readonly deps: PortalLinkDependencies) {}

  /** @throws TooManyAttemptsError past the sign-in throttle's lock (429, its message shown by the form). */
  async request(email: string, clientAddress: string): Promise<PortalLinkReply> {
    const nowSeconds = Math.floor(this.deps.clock.now().getTime() / 1000);
    const reserved = await this.deps.attempts.reserve(
      this.clientHash(clientAddress),
      nowSeconds,
      SIGN_IN_THROTTLE.windowSeconds,
    );
    if (reserved.earlier >= SIGN_IN_THROTTLE.lockAfter)
      throw new TooManyAttemptsError(MESSAGES.login.tooManyAttempts);

    const customerId = await this.customerOf(email);
    if (customerId) {
      const portal = await this.deps.payments.createPortalSession(customerId, `${this.deps.publicUrl}/login`);
      await this.deps.mailer.send(portalLinkEmail({ to: email, url: portal.url }));
      this.deps.logger.info('Lien du portail client envoyé');
    }
    return { message: MESSAGES.subscription.portalLinkSent };
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

  /** Client addresses are kept only as a keyed hash, apart from the sign-in counter's. */
  private clientHash(clientAddress: string): string {
    return createHmac('sha256', this.deps.licenseHashKey)
      .update(`portal-link:${clientAddress}`)
      .digest('base64url');
  }
}
