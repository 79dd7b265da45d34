import { randomUUID } from 'node:crypto';

import { RETENTION_DAYS } from '../../../shared/constants';
import { generateLicenseKey } from '../../../shared/license-key';
import { MESSAGES } from '../../../shared/messages';
import type { CheckoutRequest, PromoCodeReply, SubscriptionView } from '../../../shared/schemas/billing';
import type { SuccessReply } from '../../../shared/schemas/common';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { InvalidInputError, NotFoundError } from '../core/errors';
import type { Clock, Logger, Mailer, MailMessage } from '../core/ports';
import { licenseStateOf, sameLicenseState } from '../identity/license-state';
import { newLicenseRecord } from '../identity/licenses';
import { LicenseNotFoundError, type LicenseRecord, type Licenses } from '../identity/ports';
import { PaymentProviderUnavailableError, PaymentsError, PromotionCodeRefusedError } from './billing-errors';
import { cancellationEmail, cancellationScheduledEmail, licenseKeyEmail } from './emails';
import type {
  BillingEmail,
  CheckoutRecord,
  CheckoutSessionState,
  PaymentEvent,
  Payments,
  StripeEvents,
  SubscriptionState,
  Subscriptions,
} from './ports';
import { licenseMailTags } from './undelivered-mail';

export interface BillingServiceDependencies {
  readonly licenses: Pick<Licenses, 'getByHash' | 'updateUserEmail' | 'updateState'>;
  readonly events: StripeEvents;
  readonly subscriptions: Subscriptions;
  readonly vault: LicenseKeyVault;
  readonly payments: Payments;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The site's public origin (`https://…`, no trailing slash): Stripe return URLs, e-mail links. */
  readonly publicUrl: string;
}

/**
 * What became of a webhook event: `applied`, `duplicate` (applied before), `busy` (another delivery or
 * work on its subscription in progress: answered non-2xx so Stripe retries), `ignored` (not listened to).
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'busy' | 'ignored';

/** The event types the product listens to; configure the Stripe webhook endpoint with these. */
export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;

const CHECKOUT_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
]);
const HANDLED: ReadonlySet<string> = new Set(HANDLED_EVENT_TYPES);
/** Payment states of a checkout that mean the first invoice is settled. */
const SETTLED: ReadonlySet<string> = new Set(['paid', 'no_payment_required']);

/** Leases, in milliseconds: longer than one handler run, short enough for a retry to take over. */
const EVENT_LEASE_MS = 60_000;
const LOCK_LEASE_MS = 30_000;
const EMAIL_LEASE_MS = 60_000;
/** How long a delivery waits for the lock of its subscription before answering `busy`. */
const LOCK_ATTEMPTS = 20;
const LOCK_RETRY_MS = 250;
const DAY_MS = 24 * 60 * 60 * 1000;

type Work = 'done' | 'busy';

/**
 * Purchase, licence lifecycle and subscription management. Webhook events are applied once, always
 * from the subscription's current state at Stripe, under a lease per subscription, so arrival order and
 * slow readers cannot leave an older state.
 */
export class BillingService {
  private readonly licenses: BillingServiceDependencies['licenses'];
  private readonly events: StripeEvents;
  private readonly subscriptions: Subscriptions;

  constructor(private readonly deps: BillingServiceDependencies) {
    this.licenses = deps.licenses;
    this.events = deps.events;
    this.subscriptions = deps.subscriptions;
  }

  /**
   * create-checkout: a Stripe Checkout for the licence, with the promotion code if it is usable.
   * @throws InvalidInputError 'Code promo invalide ou expiré' for an unknown, inactive or used-up code
   * @throws PaymentProviderUnavailableError 'Erreur lors de la création du paiement' when Stripe fails
   */
  async createCheckout(request: CheckoutRequest): Promise<{ url: string }> {
    const promoCode = request.promoCode?.trim();
    let promotionCodeId: string | undefined;
    if (promoCode) {
      const promotion = await this.provider(MESSAGES.purchase.checkoutFailed, () =>
        this.deps.payments.findActivePromotionCode(promoCode),
      );
      const usable =
        promotion?.active === true &&
        (promotion.maxRedemptions === null || promotion.timesRedeemed < promotion.maxRedemptions);
      if (!promotion || !usable) throw new InvalidInputError('promoCode', MESSAGES.purchase.promoInvalid);
      promotionCodeId = promotion.id;
    }
    try {
      const session = await this.deps.payments.createCheckoutSession({
        email: request.email,
        ...(promotionCodeId ? { promotionCodeId } : {}),
        successUrl: `${this.deps.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.deps.publicUrl}/login`,
        metadata: { product: 'license', licenseType: 'lawyer' },
      });
      return { url: session.url };
    } catch (error) {
      // The code was usable a moment ago but Stripe refused it: used up in between.
      if (error instanceof PromotionCodeRefusedError)
        throw new InvalidInputError('promoCode', MESSAGES.purchase.promoInvalid);
      throw this.providerFailure(MESSAGES.purchase.checkoutFailed, error);
    }
  }

  /**
   * Applies a verified webhook event once. Throws when it could not be applied (the claim is
   * given up, so Stripe's next delivery applies it).
   */
  async handleWebhookEvent(event: PaymentEvent): Promise<WebhookOutcome> {
    if (!HANDLED.has(event.type)) return 'ignored';
    const claim = await this.events.claim(event, randomUUID(), this.deps.clock.now(), EVENT_LEASE_MS);
    if (claim.outcome === 'applied') return 'duplicate';
    if (claim.outcome === 'in_progress') return 'busy';
    try {
      const work = CHECKOUT_EVENTS.has(event.type)
        ? await this.fulfilCheckout(event.checkoutSessionId)
        : await this.syncSubscription(event.subscriptionId);
      if (work === 'busy') {
        await this.events.release(event.id, claim.token);
        return 'busy';
      }
      await this.events.markApplied(event.id, claim.token, work, this.deps.clock.now());
      if (work !== 'done') {
        // An unknown checkout or subscription: nothing changed, and the reply says so.
        this.deps.logger.info('Événement Stripe sans effet', {
          eventId: event.id,
          eventType: event.type,
          work,
        });
        return 'ignored';
      }
      this.deps.logger.info('Événement Stripe appliqué', { eventId: event.id, eventType: event.type });
      return 'applied';
    } catch (error) {
      await this.events.release(event.id, claim.token).catch(() => undefined);
      throw error;
    }
  }

  /** check-subscription: the licence as it is, refreshed from Stripe when it has a subscription. */
  async checkSubscription(license: LicenseRecord | null): Promise<SubscriptionView> {
    if (!license) {
      return {
        hasLicense: false,
        licenseActive: false,
        subscriptionStatus: null,
        licenseKey: null,
        nextPaymentDue: null,
        accessEndsAt: null,
      };
    }
    let current = license;
    const billing = await this.subscriptions.billingOfLicense(license.keyHash);
    if (billing) {
      try {
        await this.syncSubscription(billing.subscriptionId);
        current = (await this.licenses.getByHash(license.keyHash)) ?? license;
      } catch (error) {
        // The stored state is still worth showing when Stripe cannot be reached.
        this.deps.logger.warn('Abonnement non rafraîchi depuis Stripe', { errorName: (error as Error).name });
      }
    }
    return {
      hasLicense: true,
      licenseActive: current.isActive,
      subscriptionStatus: current.subscriptionStatus,
      licenseKey: this.deps.vault.decrypt(current.keyCiphertext),
      nextPaymentDue: current.nextPaymentDue,
      accessEndsAt: current.accessEndsAt,
    };
  }

  /**
   * cancel-subscription: stops the renewal at Stripe at once (`cancel_at_period_end`); the licence
   * keeps its access until the end of the paid month, and the confirmation e-mail gives that date.
   * The licence becomes inactive, and the retention clock starts, when Stripe ends the subscription.
   */
  async cancelSubscription(license: LicenseRecord): Promise<SuccessReply> {
    await this.setRenewal(license, false, MESSAGES.subscription.cancelFailed);
    return { success: true };
  }

  /** reactivate-subscription: a cancellation scheduled is withdrawn; the renewal goes on as before. */
  async reactivateSubscription(license: LicenseRecord): Promise<SuccessReply> {
    await this.setRenewal(license, true, MESSAGES.subscription.reactivateFailed);
    return { success: true };
  }

  private async setRenewal(license: LicenseRecord, renew: boolean, failure: string): Promise<void> {
    const billing = await this.subscriptions.billingOfLicense(license.keyHash);
    if (!billing || billing.canceledAt) throw new NotFoundError(failure);
    const updated = await this.provider(failure, () =>
      this.deps.payments.setCancelAtPeriodEnd(billing.subscriptionId, !renew),
    );
    // An ended subscription cannot be renewed again: the firm buys a new licence.
    if (renew && updated.status === 'canceled') throw new NotFoundError(failure);
    const work = await this.syncSubscription(billing.subscriptionId);
    // The screen must show the change even if a webhook holds the subscription's lease.
    if (work === 'busy') await this.applySubscription(license.keyHash, updated);
  }

  /**
   * Before an admin deletes a lawyer with his licence: a subscription still running is cancelled
   * at Stripe, so that the firm is not charged for a licence that no longer exists; the end is
   * recorded and confirmed by e-mail like any cancellation. A failure at Stripe throws (424), and
   * the deletion does not happen.
   */
  async endSubscriptionOf(license: LicenseRecord): Promise<void> {
    const billing = await this.subscriptions.billingOfLicense(license.keyHash);
    if (!billing || billing.canceledAt) return;
    const canceled = await this.provider(MESSAGES.subscription.cancelFailed, () =>
      this.deps.payments.cancelSubscription(billing.subscriptionId),
    );
    await this.applySubscription(license.keyHash, canceled);
  }

  /** customer-portal: a Stripe customer-portal session for the licence's customer. */
  async customerPortal(license: LicenseRecord, returnPath = '/lawyer/settings'): Promise<{ url: string }> {
    const billing = await this.subscriptions.billingOfLicense(license.keyHash);
    if (!billing) throw new NotFoundError(MESSAGES.subscription.customerPortalFailed);
    return this.provider(MESSAGES.subscription.customerPortalFailed, () =>
      this.deps.payments.createPortalSession(billing.customerId, `${this.deps.publicUrl}${returnPath}`),
    );
  }

  /** create-promo-code (admin): a 100 % promotion code usable at most 10 times. */
  async createTestPromoCode(): Promise<PromoCodeReply> {
    const created = await this.provider(MESSAGES.promo.createFailed, () =>
      this.deps.payments.createTestPromotionCode(),
    );
    this.deps.logger.info('Code promo test créé', { promotionCodeId: created.id });
    return { success: true, promoCode: created.code, percentOff: created.percentOff };
  }

  /** update-license-email: associates the licence of a key hash (the caller's own) with an e-mail. */
  async updateLicenseEmail(keyHash: string, userEmail: string): Promise<SuccessReply> {
    try {
      await this.licenses.updateUserEmail(keyHash, userEmail, this.deps.clock.now().toISOString());
      return { success: true };
    } catch (error) {
      if (error instanceof LicenseNotFoundError) throw new NotFoundError(MESSAGES.subscription.noLicenseKey);
      throw error;
    }
  }

  /**
   * checkout.session.completed: issues the checkout's licence exactly once, in the state its
   * subscription is in now, then e-mails the key exactly once.
   */
  private async fulfilCheckout(checkoutSessionId: string | null): Promise<Work | 'no-checkout'> {
    if (!checkoutSessionId) return 'no-checkout';
    const session = await this.deps.payments.retrieveCheckoutSession(checkoutSessionId);
    if (session?.status !== 'complete' || !SETTLED.has(session.paymentStatus)) return 'no-checkout';
    const { subscriptionId } = session;
    if (!subscriptionId) return 'no-checkout';
    return this.withSubscriptionLock(subscriptionId, async () => {
      const subscription = await this.deps.payments.retrieveSubscription(subscriptionId);
      if (!subscription) throw new PaymentsError(`Abonnement ${subscriptionId} introuvable chez Stripe`);
      let checkout = await this.subscriptions.getCheckout(session.id);
      if (!checkout) checkout = await this.issueLicense(session, subscription);
      // The key first: a subscription already ended also gets its cancellation e-mail, after it.
      await this.sendLicenseKeyOnce(checkout, session.amountTotalCents);
      await this.applySubscription(checkout.keyHash, subscription);
    });
  }

  /** Creates the licence and its links in one transaction; a concurrent twin makes this a no-op. */
  private async issueLicense(
    session: CheckoutSessionState,
    subscription: SubscriptionState,
  ): Promise<CheckoutRecord> {
    const now = this.deps.clock.now();
    const email = session.email?.trim().toLowerCase() || null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const licenseKey = generateLicenseKey();
      const record: LicenseRecord = {
        ...newLicenseRecord(
          this.deps.vault,
          licenseKey,
          { licenseType: 'lawyer', userEmail: email },
          now.toISOString(),
        ),
        ...licenseStateOf(subscription),
      };
      const issued = await this.subscriptions.issueLicense(record, {
        checkoutSessionId: session.id,
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        keyHash: record.keyHash,
        email,
        now,
      });
      if (issued) {
        this.deps.logger.info('Licence émise après paiement', { checkoutSessionId: session.id });
        const checkout = await this.subscriptions.getCheckout(session.id);
        if (!checkout) throw new Error('Paiement sans trace après émission de licence');
        return checkout;
      }
      const existing = await this.subscriptions.getCheckout(session.id);
      if (existing) return existing;
      // Otherwise the generated key collided with an existing one: draw another.
    }
    throw new Error('Impossible de générer une clé de licence unique');
  }

  private async sendLicenseKeyOnce(checkout: CheckoutRecord, amountPaidCents: number | null): Promise<void> {
    if (checkout.emailSentAt || !checkout.email) return;
    const to = checkout.email;
    await this.sendOnce({ kind: 'license-key', checkoutSessionId: checkout.checkoutSessionId }, async () => {
      const license = await this.licenses.getByHash(checkout.keyHash);
      if (!license) return null;
      return {
        ...licenseKeyEmail({
          to,
          licenseKey: this.deps.vault.decrypt(license.keyCiphertext),
          loginUrl: `${this.deps.publicUrl}/login`,
          amountPaidCents,
        }),
        tags: licenseMailTags(license.keyHash),
      };
    });
  }

  /** Brings the licence of a subscription to the subscription's current state. */
  private async syncSubscription(
    subscriptionId: string | null,
  ): Promise<Work | 'no-subscription' | 'no-license'> {
    if (!subscriptionId) return 'no-subscription';
    // Before the checkout is applied there is no licence yet: the checkout will read the then current state.
    if (!(await this.subscriptions.licenseOfSubscription(subscriptionId))) return 'no-license';
    return this.withSubscriptionLock(subscriptionId, async () => {
      const keyHash = await this.subscriptions.licenseOfSubscription(subscriptionId);
      const subscription = await this.deps.payments.retrieveSubscription(subscriptionId);
      if (keyHash && subscription) await this.applySubscription(keyHash, subscription);
    });
  }

  /** Writes the licence state the subscription calls for; an ended subscription starts the retention clock. */
  private async applySubscription(keyHash: string, subscription: SubscriptionState): Promise<void> {
    const license = await this.licenses.getByHash(keyHash);
    if (!license) return;
    const next = licenseStateOf(subscription);
    if (!sameLicenseState(license, next)) {
      try {
        await this.licenses.updateState(keyHash, next, this.deps.clock.now().toISOString());
      } catch (error) {
        // Deleted meanwhile (with its lawyer): nothing left to keep in step.
        if (error instanceof LicenseNotFoundError) return;
        throw error;
      }
      this.deps.logger.info('Licence mise à jour depuis Stripe', {
        subscriptionId: subscription.id,
        subscriptionStatus: next.subscriptionStatus,
        isActive: next.isActive,
      });
    }
    if (subscription.status === 'canceled') await this.recordCancellation(license);
    else if (next.accessEndsAt) await this.confirmScheduledCancellation(license, next.accessEndsAt);
  }

  /** Confirms once per date, to the billing address, that the renewal stopped and when access ends. */
  private async confirmScheduledCancellation(license: LicenseRecord, accessEndsAt: string): Promise<void> {
    const billing = await this.subscriptions.billingOfLicense(license.keyHash);
    const to = billing?.billingEmail ?? license.userEmail;
    if (!to) return;
    const message = cancellationScheduledEmail({ to, accessEndsAt: new Date(accessEndsAt) });
    await this.sendOnce(
      { kind: 'cancellation-scheduled', keyHash: license.keyHash, accessEndsAt },
      async () => message,
    );
  }

  /** Records the end of a subscription once (purge date 30 days later) and confirms it once by e-mail. */
  private async recordCancellation(license: LicenseRecord): Promise<void> {
    const now = this.deps.clock.now();
    const purgeAfter = new Date(now.getTime() + RETENTION_DAYS.afterCancellation * DAY_MS);
    const billing = await this.subscriptions.recordCancellation(license.keyHash, now, purgeAfter);
    // The billing address (the buyer's), not the e-mail the licence was associated with since.
    const to = billing?.billingEmail ?? license.userEmail;
    if (!billing?.canceledAt || !billing.purgeAfter || billing.cancellationEmailSentAt || !to) return;
    const message = cancellationEmail({
      to,
      canceledAt: new Date(billing.canceledAt),
      purgeAfter: new Date(billing.purgeAfter),
    });
    await this.sendOnce({ kind: 'cancellation', keyHash: license.keyHash }, async () => message);
  }

  /**
   * Sends an e-mail if this caller wins its claim; a failed send gives the claim up and throws, so
   * that the event is delivered again and the e-mail retried.
   */
  private async sendOnce(email: BillingEmail, compose: () => Promise<MailMessage | null>): Promise<void> {
    if (!(await this.subscriptions.claimEmail(email, this.deps.clock.now(), EMAIL_LEASE_MS))) return;
    let message: MailMessage | null;
    try {
      message = await compose();
      if (message) await this.deps.mailer.send(message);
    } catch (error) {
      await this.subscriptions.releaseEmailClaim(email).catch(() => undefined);
      throw error;
    }
    if (message) await this.subscriptions.markEmailSent(email, this.deps.clock.now());
    else await this.subscriptions.releaseEmailClaim(email);
  }

  /** Runs `work` holding the subscription's lease; 'busy' if it stays taken for the whole wait. */
  private async withSubscriptionLock(subscriptionId: string, work: () => Promise<void>): Promise<Work> {
    const owner = randomUUID();
    for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
      if (await this.subscriptions.acquireLock(subscriptionId, owner, this.deps.clock.now(), LOCK_LEASE_MS)) {
        try {
          await work();
          return 'done';
        } finally {
          await this.subscriptions.releaseLock(subscriptionId, owner);
        }
      }
      await this.deps.clock.sleep(LOCK_RETRY_MS);
    }
    return 'busy';
  }

  /** Calls the payment provider; its failure becomes the call's French message, logged without details. */
  private async provider<T>(message: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.providerFailure(message, error);
    }
  }

  private providerFailure(message: string, error: unknown): PaymentProviderUnavailableError {
    this.deps.logger.warn('Échec chez le prestataire de paiement', {
      errorName: (error as Error)?.name,
      errorMessage: error instanceof PaymentsError ? error.message : undefined,
    });
    return new PaymentProviderUnavailableError(message, { cause: error });
  }
}
