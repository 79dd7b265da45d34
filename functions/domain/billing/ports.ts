import type { LicenseRecord } from '../identity/ports';

/**
 * The payment provider as the product uses it: exactly the operations of the purchase flow, the
 * webhook and subscription management, and nothing else. `stripe-payments.ts` implements it over
 * the official Stripe SDK, against real Stripe or the local stand-in.
 */

/** What a checkout sells is fixed (spec §9); the caller only says to whom and where to come back. */
export interface CheckoutSessionInput {
  readonly email: string;
  /** A promotion code id the caller has already checked, applied to the first invoice. */
  readonly promotionCodeId?: string;
  /** May contain `{CHECKOUT_SESSION_ID}`, which the provider replaces. */
  readonly successUrl: string;
  readonly cancelUrl: string;
  /** Copied onto the checkout session and onto the subscription it creates. */
  readonly metadata: Readonly<Record<string, string>>;
}

export interface CheckoutSessionLink {
  readonly id: string;
  /** The hosted payment page the browser is sent to. */
  readonly url: string;
}

/** A promotion code as found by its customer-facing code. */
export interface PromotionCodeInfo {
  readonly id: string;
  readonly code: string;
  /** Active, not expired, and its coupon still valid. */
  readonly active: boolean;
  readonly timesRedeemed: number;
  /** Null when the code has no limit. */
  readonly maxRedemptions: number | null;
}

export interface CreatedPromotionCode {
  readonly id: string;
  readonly code: string;
  readonly percentOff: number;
  readonly maxRedemptions: number;
}

/** A checkout session as it is now at the provider. */
export interface CheckoutSessionState {
  readonly id: string;
  /** `open`, `complete` or `expired`. */
  readonly status: string;
  /** `paid` or `no_payment_required` once the money (if any) is in. */
  readonly paymentStatus: string;
  readonly customerId: string | null;
  readonly subscriptionId: string | null;
  /** The e-mail the buyer paid with. */
  readonly email: string | null;
  /** What the buyer paid today, in cents (0 with a 100 % promo code); null when not known. */
  readonly amountTotalCents: number | null;
  readonly metadata: Readonly<Record<string, string>>;
}

/** A subscription as it is now at the provider. */
export interface SubscriptionState {
  readonly id: string;
  /** Stripe's status: active, past_due, unpaid, canceled, incomplete, incomplete_expired, trialing, paused. */
  readonly status: string;
  readonly customerId: string;
  /** Start of the current period: when its debit was due (the one missed while past due). */
  readonly currentPeriodStart: Date | null;
  /** End of the current period, when the next automatic debit happens. */
  readonly currentPeriodEnd: Date | null;
  /** The firm asked to stop renewing: the subscription ends at `currentPeriodEnd`, no debit after. */
  readonly cancelAtPeriodEnd: boolean;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * A verified webhook event, reduced to what it is about. The event's own copy of the object is
 * deliberately not carried: the service re-reads the object's current state instead.
 */
export interface PaymentEvent {
  readonly id: string;
  readonly type: string;
  /** The checkout session of a `checkout.session.*` event. */
  readonly checkoutSessionId: string | null;
  /** The subscription the event concerns (directly, or through its invoice or checkout). */
  readonly subscriptionId: string | null;
}

export interface Payments {
  /** A subscription-mode checkout: 950 EUR once on the first invoice, then 150 EUR per month. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSessionLink>;
  /** The promotion code with that customer-facing code (case-insensitive), or null. */
  findActivePromotionCode(code: string): Promise<PromotionCodeInfo | null>;
  /**
   * A new 100 % promotion code usable at most 10 times (spec §9, test promo). With an idempotency
   * key, the provider answers a retry with the first result; the key first used for another
   * request throws `IdempotencyKeyReusedError`.
   */
  createTestPromotionCode(idempotencyKey: string | null): Promise<CreatedPromotionCode>;
  /** Null when the provider has no such session. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionState | null>;
  /** Null when the provider has no such subscription. */
  retrieveSubscription(id: string): Promise<SubscriptionState | null>;
  /** A customer-portal session for the customer, coming back to `returnUrl`. */
  createPortalSession(customerId: string, returnUrl: string): Promise<{ readonly url: string }>;
  /** Cancels at once; cancelling a subscription that is already cancelled returns it as it is. */
  cancelSubscription(id: string): Promise<SubscriptionState>;
  /**
   * Stops (true) or resumes (false) the renewal: a subscription set to end at its period's end keeps
   * its access until then (Stripe `cancel_at_period_end`).
   */
  setCancelAtPeriodEnd(id: string, cancelAtPeriodEnd: boolean): Promise<SubscriptionState>;
  /**
   * Verifies the signature of a webhook delivery on its raw body and returns the event.
   * @throws WebhookSignatureInvalidError when the header is missing, malformed, wrong or too old.
   */
  constructWebhookEvent(rawBody: string, signatureHeader: string | undefined): PaymentEvent;
}

/** A checkout that issued a licence. */
export interface CheckoutRecord {
  readonly checkoutSessionId: string;
  readonly keyHash: string;
  readonly subscriptionId: string;
  readonly customerId: string;
  readonly email: string | null;
  readonly createdAt: string;
  readonly emailSentAt: string | null;
}

/** The subscription behind a licence. */
export interface LicenseBilling {
  readonly keyHash: string;
  readonly subscriptionId: string;
  readonly customerId: string;
  /**
   * The buyer's checkout e-mail: where the portal link and the licence's e-mails go, whatever
   * e-mail the licence is later associated with. Null for records written before it was kept.
   */
  readonly billingEmail: string | null;
  readonly createdAt: string;
  readonly canceledAt: string | null;
  /** From this date the lawyer's data may be purged (spec §9: 30 days after cancellation). */
  readonly purgeAfter: string | null;
  readonly cancellationEmailSentAt: string | null;
}

/**
 * Which e-mail a claim is about: the licence key of a checkout, the confirmation of a cancellation
 * requested (once per end-of-access date), or the notice that the subscription has ended.
 */
export type BillingEmail =
  | { readonly kind: 'license-key'; readonly checkoutSessionId: string }
  | { readonly kind: 'cancellation-scheduled'; readonly keyHash: string; readonly accessEndsAt: string }
  | { readonly kind: 'cancellation'; readonly keyHash: string };

/** What links a new licence to the checkout that paid for it. */
export interface CheckoutLink {
  readonly checkoutSessionId: string;
  readonly subscriptionId: string;
  readonly customerId: string;
  readonly keyHash: string;
  readonly email: string | null;
  readonly now: Date;
}

/**
 * The outcome of claiming an event: ours to apply (with the token that proves it), already
 * applied by an earlier delivery, or being applied right now by a concurrent one.
 */
export type EventClaim =
  | { readonly outcome: 'claimed'; readonly token: string }
  | { readonly outcome: 'applied' }
  | { readonly outcome: 'in_progress' };

/**
 * The billing side of each licence: which licence a subscription pays for, the subscription and
 * customer of a licence with its cancellation, the checkout that issued it, the e-mails sent once,
 * and a short lease that serialises the work on one subscription.
 */
export interface Subscriptions {
  /** Creates a paid checkout's licence with its links, at once; false when the checkout issued one already. */
  issueLicense(license: LicenseRecord, link: CheckoutLink): Promise<boolean>;
  getCheckout(checkoutSessionId: string): Promise<CheckoutRecord | null>;
  /** The key hash of the licence a subscription pays for, or null. */
  licenseOfSubscription(subscriptionId: string): Promise<string | null>;
  billingOfLicense(keyHash: string): Promise<LicenseBilling | null>;
  /** The billing records of a billing address. */
  billingOfEmail(email: string): Promise<LicenseBilling[]>;
  /** Records a cancellation and when the data may be purged; the billing record as it now is. */
  recordCancellation(keyHash: string, canceledAt: Date, purgeAfter: Date): Promise<LicenseBilling | null>;
  /** The licences whose purge date has come, oldest first. */
  purgeDue(now: Date, limit?: number): Promise<{ keyHash: string; purgeAfter: string; canceledAt: string }[]>;
  markPurged(keyHash: string, canceledAt: Date, now: Date): Promise<void>;
  clearCancellation(keyHash: string): Promise<void>;
  /** Claims the sending of an e-mail for a while; false when sent or claimed by another delivery. */
  claimEmail(email: BillingEmail, now: Date, leaseMs: number): Promise<boolean>;
  markEmailSent(email: BillingEmail, now: Date): Promise<void>;
  releaseEmailClaim(email: BillingEmail): Promise<void>;
  /** Takes the lease on a subscription's work; false while another owner holds it. */
  acquireLock(subscriptionId: string, owner: string, now: Date, leaseMs: number): Promise<boolean>;
  releaseLock(subscriptionId: string, owner: string): Promise<void>;
}

/** Which payment events were applied: each claimed before it is applied, marked applied after. */
export interface StripeEvents {
  claim(event: { id: string; type: string }, token: string, now: Date, leaseMs: number): Promise<EventClaim>;
  markApplied(eventId: string, token: string, result: string, now: Date): Promise<void>;
  release(eventId: string, token: string): Promise<void>;
  isApplied(eventId: string): Promise<boolean>;
}
