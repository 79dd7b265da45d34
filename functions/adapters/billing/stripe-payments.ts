import { createHash, randomInt } from 'node:crypto';

import Stripe from 'stripe';
import { PRICING, TEST_PROMO } from '../../../shared/constants';
import { IDEMPOTENCY_MESSAGES } from '../../../shared/idempotency-messages';
import {
  PaymentsError,
  PromotionCodeRefusedError,
  UnreadableWebhookEventError,
  WebhookSignatureInvalidError,
} from '../../domain/billing/billing-errors';
import type {
  CheckoutSessionInput,
  CheckoutSessionLink,
  CheckoutSessionState,
  CreatedPromotionCode,
  PaymentEvent,
  Payments,
  PromotionCodeInfo,
  SubscriptionState,
} from '../../domain/billing/ports';
import { IdempotencyKeyReusedError } from '../../domain/core/errors';

/** How to reach Stripe: real Stripe by default, the local stand-in with host, port and protocol. */
export interface StripePaymentsOptions {
  /** `sk_test_...` or `sk_live_...`. */
  readonly apiKey: string;
  /**
   * The signing secret of the webhook endpoint, `whsec_...`; only the webhook handler has it, the
   * other billing functions never verify an event.
   */
  readonly webhookSecret?: string | undefined;
  readonly host?: string;
  readonly port?: number;
  readonly protocol?: 'http' | 'https';
  /** Milliseconds since the epoch; the webhook's timestamp tolerance is measured against it. */
  readonly now?: () => number;
  /**
   * Request time-out in milliseconds. Default 8 s, with one retry: a handler must answer within
   * API Gateway's 30 s even when Stripe is slow.
   */
  readonly timeoutMs?: number;
}

/** Stripe's tolerance for a webhook's timestamp, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The `t=` timestamp (seconds) of a Stripe-Signature header, read as the SDK reads it (the last
 * one), so that the date checked is the date the signature was verified with.
 */
function signedAtOf(header: string): number | null {
  let signedAt: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') signedAt = Number.parseInt(value ?? '', 10);
  }
  return signedAt !== null && Number.isFinite(signedAt) ? signedAt : null;
}

/** What the checkout sells (spec §1 and §9). */
const PRODUCT_NAMES = {
  subscription: 'Assistant IA juridique — abonnement mensuel',
  initialPayment: 'Assistant IA juridique — licence (paiement initial)',
  testCoupon: 'Code promo test (100 %)',
} as const;

const PROMO_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * A test promotion code: `TEST` and 8 characters without the easily confused ones (0/O, 1/I).
 * Stripe accepts letters and digits only in a code.
 */
function newTestPromoCode(idempotencyKey: string | null): string {
  // Under a key, the code is drawn from it: a retry sends Stripe the same parameters, which Stripe
  // requires to replay the first result (the key is the caller's random one, hashed and scoped).
  const drawn = idempotencyKey ? createHash('sha256').update(`promo-code\n${idempotencyKey}`).digest() : null;
  let code = 'TEST';
  for (let index = 0; index < 8; index++) {
    code +=
      PROMO_CODE_ALPHABET[
        drawn ? (drawn[index] ?? 0) % PROMO_CODE_ALPHABET.length : randomInt(PROMO_CODE_ALPHABET.length)
      ];
  }
  return code;
}

/** Stripe's request options for one step of a create under an idempotency key (one key per API call). */
const idempotentStep = (idempotencyKey: string | null, step: string): Stripe.RequestOptions =>
  idempotencyKey ? { idempotencyKey: `${idempotencyKey}-${step}` } : {};

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * The current billing period. Since API version 2025-03-31 it is per subscription item (with one
 * recurring item, as here, that item's period); an account pinned to an older version still has
 * it on the subscription itself.
 */
function currentPeriodOf(subscription: Stripe.Subscription): { start: Date | null; end: Date | null } {
  const item = subscription.items.data[0] as Partial<Stripe.SubscriptionItem> | undefined;
  const legacy = subscription as unknown as { current_period_start?: unknown; current_period_end?: unknown };
  const at = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
  return {
    start: at(item?.current_period_start ?? legacy.current_period_start),
    end: at(item?.current_period_end ?? legacy.current_period_end),
  };
}

function toSubscriptionState(subscription: Stripe.Subscription): SubscriptionState {
  return {
    id: subscription.id,
    status: subscription.status,
    customerId: idOf(subscription.customer) ?? '',
    currentPeriodStart: currentPeriodOf(subscription).start,
    currentPeriodEnd: currentPeriodOf(subscription).end,
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    metadata: subscription.metadata ?? {},
  };
}

/** The subscription an invoice belongs to, in the current shape and in the pre-2025 one. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const current = idOf(invoice.parent?.subscription_details?.subscription);
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return current ?? idOf(legacy);
}

function isResourceMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.code === 'resource_missing';
}

/** Wraps an SDK failure so that callers only ever see the port's errors; keeps Stripe's facts. */
function wrap(operation: string, error: unknown): PaymentsError {
  if (error instanceof PaymentsError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    return new PaymentsError(
      `Stripe ${operation}: ${error.type}${error.code ? ` (${error.code})` : ''} ${error.statusCode ?? ''}`.trim(),
      { cause: error },
    );
  }
  return new PaymentsError(`Stripe ${operation}: échec`, { cause: error });
}

/** The Payments port over the official Stripe SDK. */
export class StripePayments implements Payments {
  private readonly stripe: Stripe;
  private readonly now: () => number;

  constructor(private readonly options: StripePaymentsOptions) {
    this.stripe = new Stripe(options.apiKey, {
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      maxNetworkRetries: 1,
      timeout: options.timeoutMs ?? 8_000,
      telemetry: false,
    });
    this.now = options.now ?? Date.now;
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSessionLink> {
    try {
      const session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        locale: 'fr',
        customer_email: input.email,
        line_items: [
          {
            price_data: {
              currency: PRICING.currency,
              unit_amount: PRICING.monthlySubscriptionCents,
              recurring: { interval: 'month' },
              product_data: { name: PRODUCT_NAMES.subscription },
            },
            quantity: 1,
          },
          {
            // A one-time price in subscription mode goes on the first invoice only.
            price_data: {
              currency: PRICING.currency,
              unit_amount: PRICING.initialPaymentCents,
              product_data: { name: PRODUCT_NAMES.initialPayment },
            },
            quantity: 1,
          },
        ],
        ...(input.promotionCodeId ? { discounts: [{ promotion_code: input.promotionCodeId }] } : {}),
        // A first invoice brought to 0 by a 100 % code asks for no card.
        payment_method_collection: 'if_required',
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: { ...input.metadata },
        subscription_data: { metadata: { ...input.metadata } },
      });
      if (!session.url) throw new PaymentsError('Stripe checkout: session sans URL');
      return { id: session.id, url: session.url };
    } catch (error) {
      if (
        input.promotionCodeId &&
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.param?.startsWith('discounts')
      ) {
        throw new PromotionCodeRefusedError('Stripe checkout: code promo refusé', { cause: error });
      }
      throw wrap('checkout.sessions.create', error);
    }
  }

  async findActivePromotionCode(code: string): Promise<PromotionCodeInfo | null> {
    try {
      const { data } = await this.stripe.promotionCodes.list({
        code,
        limit: 1,
        expand: ['data.promotion.coupon'],
      });
      const promotion = data[0];
      if (!promotion) return null;
      // Expanded, the coupon says whether it can still be redeemed; as a bare id it exists at least.
      const coupon = promotion.promotion.coupon;
      const couponValid = typeof coupon === 'string' || coupon?.valid === true;
      const expired = promotion.expires_at !== null && promotion.expires_at * 1000 <= this.now();
      return {
        id: promotion.id,
        code: promotion.code,
        active: promotion.active && couponValid && !expired,
        timesRedeemed: promotion.times_redeemed,
        maxRedemptions: promotion.max_redemptions,
      };
    } catch (error) {
      throw wrap('promotionCodes.list', error);
    }
  }

  async createTestPromotionCode(idempotencyKey: string | null): Promise<CreatedPromotionCode> {
    try {
      // `once`: the first invoice (950 + 150 EUR) is free, later months are billed as usual.
      const coupon = await this.stripe.coupons.create(
        { percent_off: TEST_PROMO.percentOff, duration: 'once', name: PRODUCT_NAMES.testCoupon },
        idempotentStep(idempotencyKey, 'coupon'),
      );
      // A retry gets the same coupon back, so the same parameters here too.
      const promotion = await this.stripe.promotionCodes.create(
        {
          promotion: { type: 'coupon', coupon: coupon.id },
          code: newTestPromoCode(idempotencyKey),
          max_redemptions: TEST_PROMO.maxRedemptions,
          metadata: { purpose: 'test' },
        },
        idempotentStep(idempotencyKey, 'promotion-code'),
      );
      return {
        id: promotion.id,
        code: promotion.code,
        percentOff: coupon.percent_off ?? TEST_PROMO.percentOff,
        maxRedemptions: promotion.max_redemptions ?? TEST_PROMO.maxRedemptions,
      };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeIdempotencyError)
        throw new IdempotencyKeyReusedError(IDEMPOTENCY_MESSAGES.keyReused, { cause: error });
      throw wrap('promotionCodes.create', error);
    }
  }

  async retrieveCheckoutSession(id: string): Promise<CheckoutSessionState | null> {
    try {
      const session = await this.stripe.checkout.sessions.retrieve(id);
      return {
        id: session.id,
        status: session.status ?? 'open',
        paymentStatus: session.payment_status,
        amountTotalCents: session.amount_total ?? null,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
        email: session.customer_details?.email ?? session.customer_email ?? null,
        metadata: session.metadata ?? {},
      };
    } catch (error) {
      if (isResourceMissing(error)) return null;
      throw wrap('checkout.sessions.retrieve', error);
    }
  }

  async retrieveSubscription(id: string): Promise<SubscriptionState | null> {
    try {
      return toSubscriptionState(await this.stripe.subscriptions.retrieve(id));
    } catch (error) {
      if (isResourceMissing(error)) return null;
      throw wrap('subscriptions.retrieve', error);
    }
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }> {
    try {
      const session = await this.stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
        locale: 'fr',
      });
      return { url: session.url };
    } catch (error) {
      throw wrap('billingPortal.sessions.create', error);
    }
  }

  async cancelSubscription(id: string): Promise<SubscriptionState> {
    try {
      return toSubscriptionState(await this.stripe.subscriptions.cancel(id));
    } catch (error) {
      // Stripe refuses to cancel twice; a subscription that is already cancelled is the goal reached.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && !isResourceMissing(error)) {
        const current = await this.retrieveSubscription(id);
        if (current?.status === 'canceled') return current;
      }
      throw wrap('subscriptions.cancel', error);
    }
  }

  async setCancelAtPeriodEnd(id: string, cancelAtPeriodEnd: boolean): Promise<SubscriptionState> {
    try {
      return toSubscriptionState(
        await this.stripe.subscriptions.update(id, { cancel_at_period_end: cancelAtPeriodEnd }),
      );
    } catch (error) {
      throw wrap('subscriptions.update', error);
    }
  }

  constructWebhookEvent(rawBody: string, signatureHeader: string | undefined): PaymentEvent {
    const { webhookSecret } = this.options;
    // A deployment error, not the caller's: a 500, so that Stripe keeps the event and retries.
    if (!webhookSecret) throw new Error('Secret de signature des webhooks Stripe non configuré');
    if (!signatureHeader) throw new WebhookSignatureInvalidError('En-tête Stripe-Signature absent');
    const signature = this.stripe.webhooks.signature;
    if (!signature) throw new Error('Vérification des signatures Stripe indisponible');
    // The signature first, on its own: only its failures are signature errors.
    try {
      signature.verifyHeader(
        rawBody,
        signatureHeader,
        webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        this.now(),
      );
    } catch (error) {
      throw new WebhookSignatureInvalidError('Signature Stripe invalide ou trop ancienne', { cause: error });
    }
    // The SDK measures only a signature's age: one dated ahead of our clock would outlive its
    // tolerance and could be replayed at leisure, so it is refused like a stale one.
    const signedAt = signedAtOf(signatureHeader);
    if (signedAt === null || signedAt - Math.floor(this.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS)
      throw new WebhookSignatureInvalidError('Signature Stripe datée dans le futur');
    let event: unknown;
    try {
      event = JSON.parse(rawBody);
    } catch (error) {
      throw new UnreadableWebhookEventError('Événement Stripe signé mais illisible (pas du JSON)', {
        cause: error,
      });
    }
    return toPaymentEvent(event);
  }
}

/** Whether a value is a plain object (not null, not an array). */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reduces an event to the ids it is about, for the event types the product listens to. */
function toPaymentEvent(event: unknown): PaymentEvent {
  if (
    !isRecord(event) ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    !isRecord(event.data) ||
    !isRecord(event.data.object)
  ) {
    throw new UnreadableWebhookEventError('Événement Stripe signé sans id, type ou data.object');
  }
  const base = { id: event.id, type: event.type, checkoutSessionId: null, subscriptionId: null };
  const object = event.data.object as { object?: string };
  // Signed by Stripe, yet read defensively: an id that is not a string names nothing.
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
  switch (object.object) {
    case 'checkout.session': {
      const session = object as Stripe.Checkout.Session;
      return {
        ...base,
        checkoutSessionId: text(session.id),
        subscriptionId: text(idOf(session.subscription)),
      };
    }
    case 'invoice':
      return { ...base, subscriptionId: text(subscriptionOfInvoice(object as Stripe.Invoice)) };
    case 'subscription':
      return { ...base, subscriptionId: text((object as Stripe.Subscription).id) };
    default:
      return base;
  }
}
