import { randomInt } from 'node:crypto';

/**
 * The stand-in's in-memory Stripe objects and their JSON, shaped as Stripe's API version of the
 * SDK in use returns them (billing periods on subscription items, an invoice's subscription under
 * `parent.subscription_details`, a promotion code's coupon under `promotion`).
 */

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id: `cus_` + 14 characters, `cs_test_` + 58 for checkout sessions. */
export function stripeId(prefix: string, length = 14): string {
  let id = `${prefix}_`;
  for (let index = 0; index < length; index++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

export type Metadata = Record<string, string>;

export interface Coupon {
  readonly id: string;
  readonly created: number;
  readonly percentOff: number | null;
  readonly amountOff: number | null;
  readonly currency: string | null;
  readonly duration: string;
  readonly durationInMonths: number | null;
  readonly name: string | null;
  readonly maxRedemptions: number | null;
  readonly metadata: Metadata;
  timesRedeemed: number;
}

export interface PromotionCode {
  readonly id: string;
  readonly created: number;
  readonly code: string;
  readonly couponId: string;
  readonly maxRedemptions: number | null;
  readonly expiresAt: number | null;
  readonly metadata: Metadata;
  active: boolean;
  timesRedeemed: number;
}

export interface LineItem {
  readonly name: string;
  readonly currency: string;
  readonly unitAmount: number;
  readonly quantity: number;
  readonly interval: string | null;
  readonly priceId: string;
  readonly productId: string;
}

export interface CheckoutSession {
  readonly id: string;
  readonly created: number;
  readonly expiresAt: number;
  readonly mode: string;
  readonly locale: string | null;
  readonly customerEmail: string | null;
  readonly lineItems: readonly LineItem[];
  readonly promotionCodeId: string | null;
  readonly successUrl: string;
  readonly cancelUrl: string | null;
  readonly metadata: Metadata;
  readonly subscriptionMetadata: Metadata;
  readonly paymentMethodCollection: string;
  readonly clientReferenceId: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid' | 'no_payment_required';
  customerId: string | null;
  subscriptionId: string | null;
  invoiceId: string | null;
}

export interface Customer {
  readonly id: string;
  readonly created: number;
  readonly email: string | null;
}

export interface Subscription {
  readonly id: string;
  readonly itemId: string;
  readonly created: number;
  readonly customerId: string;
  readonly item: LineItem;
  readonly metadata: Metadata;
  readonly discountCouponId: string | null;
  status: string;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  canceledAt: number | null;
  endedAt: number | null;
  /** Set by an update: the subscription ends at its period's end instead of renewing. */
  cancelAtPeriodEnd: boolean;
  latestInvoiceId: string | null;
}

export interface Invoice {
  readonly id: string;
  readonly created: number;
  readonly customerId: string;
  readonly customerEmail: string | null;
  readonly subscriptionId: string;
  readonly subscriptionMetadata: Metadata;
  readonly billingReason: 'subscription_create' | 'subscription_cycle';
  readonly currency: string;
  readonly subtotal: number;
  readonly total: number;
  readonly periodStart: number;
  readonly periodEnd: number;
  status: 'open' | 'paid';
  attemptCount: number;
}

export interface PortalSession {
  readonly id: string;
  readonly created: number;
  readonly customerId: string;
  readonly returnUrl: string | null;
  readonly locale: string | null;
}

/** One calendar month later, the way Stripe bills monthly (same day, clamped to the month's end). */
export function oneMonthAfter(epochSeconds: number): number {
  const date = new Date(epochSeconds * 1000);
  const day = date.getUTCDate();
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return Math.floor(next.getTime() / 1000);
}

/** Whether a promotion code can be redeemed now. */
export function isRedeemable(promotion: PromotionCode, coupon: Coupon | undefined, now: number): boolean {
  return (
    promotion.active &&
    (promotion.expiresAt === null || promotion.expiresAt > now) &&
    (promotion.maxRedemptions === null || promotion.timesRedeemed < promotion.maxRedemptions) &&
    coupon !== undefined &&
    couponValid(coupon)
  );
}

export const couponValid = (coupon: Coupon) =>
  coupon.maxRedemptions === null || coupon.timesRedeemed < coupon.maxRedemptions;

/** Amounts of a checkout: everything due today, the discount on it, and the monthly amount after. */
export function checkoutAmounts(session: CheckoutSession, coupon: Coupon | undefined) {
  const subtotal = session.lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
  const recurring = session.lineItems
    .filter((item) => item.interval !== null)
    .reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
  const discount = !coupon
    ? 0
    : coupon.percentOff !== null
      ? Math.round((subtotal * coupon.percentOff) / 100)
      : Math.min(subtotal, coupon.amountOff ?? 0);
  return { subtotal, discount, total: subtotal - discount, recurring };
}

function priceJson(item: LineItem, created: number) {
  return {
    id: item.priceId,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created,
    currency: item.currency,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: item.productId,
    recurring: item.interval
      ? { interval: item.interval, interval_count: 1, meter: null, usage_type: 'licensed' }
      : null,
    tax_behavior: 'unspecified',
    type: item.interval ? 'recurring' : 'one_time',
    unit_amount: item.unitAmount,
    unit_amount_decimal: String(item.unitAmount),
  };
}

export function couponJson(coupon: Coupon) {
  return {
    id: coupon.id,
    object: 'coupon',
    amount_off: coupon.amountOff,
    created: coupon.created,
    currency: coupon.currency,
    duration: coupon.duration,
    duration_in_months: coupon.durationInMonths,
    livemode: false,
    max_redemptions: coupon.maxRedemptions,
    metadata: coupon.metadata,
    name: coupon.name,
    percent_off: coupon.percentOff,
    redeem_by: null,
    times_redeemed: coupon.timesRedeemed,
    valid: couponValid(coupon),
  };
}

export function promotionCodeJson(
  promotion: PromotionCode,
  coupon: Coupon | undefined,
  expandCoupon: boolean,
) {
  return {
    id: promotion.id,
    object: 'promotion_code',
    // As at Stripe: a promotion code is only active if its coupon is still valid.
    active: promotion.active && coupon !== undefined && couponValid(coupon),
    code: promotion.code,
    created: promotion.created,
    customer: null,
    customer_account: null,
    expires_at: promotion.expiresAt,
    livemode: false,
    max_redemptions: promotion.maxRedemptions,
    metadata: promotion.metadata,
    promotion: { type: 'coupon', coupon: expandCoupon && coupon ? couponJson(coupon) : promotion.couponId },
    restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
    times_redeemed: promotion.timesRedeemed,
  };
}

export function checkoutSessionJson(
  session: CheckoutSession,
  context: { url: string; coupon: Coupon | undefined; customerEmail: string | null },
) {
  const amounts = checkoutAmounts(session, context.coupon);
  const paid = session.status === 'complete';
  return {
    id: session.id,
    object: 'checkout.session',
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: amounts.subtotal,
    amount_total: amounts.total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: session.cancelUrl,
    client_reference_id: session.clientReferenceId,
    created: session.created,
    currency: session.lineItems[0]?.currency ?? 'eur',
    customer: session.customerId,
    customer_creation: 'always',
    customer_details: paid
      ? {
          address: null,
          email: context.customerEmail,
          name: null,
          phone: null,
          tax_exempt: 'none',
          tax_ids: [],
        }
      : null,
    customer_email: session.customerEmail,
    discounts: session.promotionCodeId
      ? [{ coupon: context.coupon?.id ?? null, promotion_code: session.promotionCodeId }]
      : [],
    expires_at: session.expiresAt,
    invoice: session.invoiceId,
    livemode: false,
    locale: session.locale,
    metadata: session.metadata,
    mode: session.mode,
    payment_intent: null,
    payment_method_collection: session.paymentMethodCollection,
    payment_method_types: ['card'],
    payment_status: session.paymentStatus,
    status: session.status,
    submit_type: null,
    subscription: session.subscriptionId,
    success_url: session.successUrl,
    total_details: { amount_discount: amounts.discount, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: session.status === 'open' ? context.url : null,
  };
}

export function subscriptionJson(subscription: Subscription) {
  return {
    id: subscription.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    billing_cycle_anchor: subscription.created,
    cancel_at: subscription.cancelAtPeriodEnd ? subscription.currentPeriodEnd : null,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: subscription.canceledAt,
    cancellation_details: subscription.canceledAt
      ? { comment: null, feedback: null, reason: 'cancellation_requested' }
      : null,
    collection_method: 'charge_automatically',
    created: subscription.created,
    currency: subscription.item.currency,
    customer: subscription.customerId,
    days_until_due: null,
    default_payment_method: null,
    description: null,
    discounts: subscription.discountCouponId ? [`di_${subscription.id.slice(4)}`] : [],
    ended_at: subscription.endedAt,
    items: {
      object: 'list',
      data: [
        {
          id: subscription.itemId,
          object: 'subscription_item',
          created: subscription.created,
          current_period_end: subscription.currentPeriodEnd,
          current_period_start: subscription.currentPeriodStart,
          discounts: [],
          metadata: {},
          price: priceJson(subscription.item, subscription.created),
          quantity: subscription.item.quantity,
          subscription: subscription.id,
          tax_rates: [],
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${subscription.id}`,
    },
    latest_invoice: subscription.latestInvoiceId,
    livemode: false,
    metadata: subscription.metadata,
    start_date: subscription.created,
    status: subscription.status,
    test_clock: null,
    trial_end: null,
    trial_start: null,
  };
}

export function invoiceJson(invoice: Invoice) {
  const paid = invoice.status === 'paid';
  return {
    id: invoice.id,
    object: 'invoice',
    amount_due: invoice.total,
    amount_paid: paid ? invoice.total : 0,
    amount_remaining: paid ? 0 : invoice.total,
    attempt_count: invoice.attemptCount,
    attempted: invoice.attemptCount > 0,
    billing_reason: invoice.billingReason,
    collection_method: 'charge_automatically',
    created: invoice.created,
    currency: invoice.currency,
    customer: invoice.customerId,
    customer_email: invoice.customerEmail,
    lines: { object: 'list', data: [], has_more: false, url: `/v1/invoices/${invoice.id}/lines` },
    livemode: false,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: invoice.subscriptionMetadata, subscription: invoice.subscriptionId },
    },
    period_end: invoice.periodEnd,
    period_start: invoice.periodStart,
    status: invoice.status,
    subtotal: invoice.subtotal,
    total: invoice.total,
  };
}

export function portalSessionJson(portal: PortalSession, url: string) {
  return {
    id: portal.id,
    object: 'billing_portal.session',
    configuration: 'bpc_stand_in',
    created: portal.created,
    customer: portal.customerId,
    flow: null,
    livemode: false,
    locale: portal.locale,
    on_behalf_of: null,
    return_url: portal.returnUrl,
    url,
  };
}
