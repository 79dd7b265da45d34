import Stripe from 'stripe';

import { StripePayments } from '../../functions/adapters/billing/stripe-payments';
import {
  newWebhookSecret,
  type StripeStandIn,
  type StripeStandInOptions,
  startStripeStandIn,
} from '../../lib/local/stripe/stand-in';

export const TEST_API_KEY = 'sk_test_stand_in_unit';

export interface StandInHarness {
  readonly standIn: StripeStandIn;
  /** The Payments port over the SDK, pointed at the stand-in. */
  readonly payments: StripePayments;
  /** A bare SDK client, to look at what the port does not expose (amounts, discounts). */
  readonly stripe: Stripe;
  readonly webhookSecret: string;
  stop(): Promise<void>;
}

/** A stand-in on a free loopback port and the SDK-backed port talking to it. */
export async function startHarness(
  options: Partial<StripeStandInOptions> & { now?: () => Date } = {},
): Promise<StandInHarness> {
  const webhookSecret = options.webhookSecret ?? newWebhookSecret();
  const standIn = await startStripeStandIn({ ...options, webhookSecret, apiKey: TEST_API_KEY });
  const connection = standIn.connection;
  const payments = new StripePayments({
    apiKey: TEST_API_KEY,
    webhookSecret,
    ...connection,
    ...(options.now ? { now: () => (options.now as () => Date)().getTime() } : {}),
  });
  const stripe = new Stripe(TEST_API_KEY, { ...connection, maxNetworkRetries: 0 });
  return { standIn, payments, stripe, webhookSecret, stop: () => standIn.stop() };
}

/** Checkout input as the billing service builds it. */
export const checkoutInput = (email: string, promotionCodeId?: string) => ({
  email,
  ...(promotionCodeId ? { promotionCodeId } : {}),
  successUrl: 'http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://localhost:3000/login',
  metadata: { product: 'license', licenseType: 'lawyer' },
});
