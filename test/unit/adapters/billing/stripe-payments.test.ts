import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripePayments } from '../../../../functions/adapters/billing/stripe-payments';
import {
  PaymentsError,
  PromotionCodeRefusedError,
} from '../../../../functions/domain/billing/billing-errors';
import { IdempotencyKeyReusedError } from '../../../../functions/domain/core/errors';
import { freePort } from '../../../../lib/local/free-port';
import { PRICING, TEST_PROMO } from '../../../../shared/constants';
import { uniqueEmail } from '../../../support/records';
import { checkoutInput, type StandInHarness, startHarness } from '../../../support/stripe';

describe('StripePayments against the local Stripe stand-in', () => {
  let harness: StandInHarness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(async () => {
    await harness.stop();
  });

  /** A checkout paid on the hosted page, as a buyer would. */
  async function paidCheckout(promotionCodeId?: string) {
    const email = uniqueEmail('cabinet');
    const link = await harness.payments.createCheckoutSession(checkoutInput(email, promotionCodeId));
    await harness.standIn.pay(link.id);
    const session = await harness.payments.retrieveCheckoutSession(link.id);
    return { email, link, session: session! };
  }

  describe('createCheckoutSession', () => {
    it('opens a subscription checkout: 950 EUR once on the first invoice, then 150 EUR a month', async () => {
      // Arrange
      const email = uniqueEmail('cabinet');

      // Act
      const link = await harness.payments.createCheckoutSession(checkoutInput(email));

      // Assert
      expect(link.url).toBe(`${harness.standIn.url}/checkout/${link.id}`);
      const session = await harness.stripe.checkout.sessions.retrieve(link.id);
      expect(session).toMatchObject({
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        customer_email: email,
        currency: 'eur',
        amount_subtotal: PRICING.initialPaymentCents + PRICING.monthlySubscriptionCents,
        amount_total: PRICING.initialPaymentCents + PRICING.monthlySubscriptionCents,
        metadata: { product: 'license', licenseType: 'lawyer' },
        discounts: [],
      });
    });

    it('applies a promotion code to the first invoice', async () => {
      // Arrange
      const promotion = await harness.payments.createTestPromotionCode(null);

      // Act
      const link = await harness.payments.createCheckoutSession(
        checkoutInput(uniqueEmail('cabinet'), promotion.id),
      );

      // Assert
      const session = await harness.stripe.checkout.sessions.retrieve(link.id);
      expect(session.discounts).toEqual([expect.objectContaining({ promotion_code: promotion.id })]);
      expect(session.total_details?.amount_discount).toBe(
        PRICING.initialPaymentCents + PRICING.monthlySubscriptionCents,
      );
      expect(session.amount_total).toBe(0);
    });

    it('reports a promotion code Stripe refuses as PromotionCodeRefusedError', async () => {
      // Act
      const attempt = harness.payments.createCheckoutSession(
        checkoutInput(uniqueEmail('cabinet'), 'promo_unknown'),
      );

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(PromotionCodeRefusedError);
    });
  });

  describe('promotion codes', () => {
    it('under one idempotency key, creates one code: a retry gets the first code back', async () => {
      // Arrange
      const key = crypto.randomUUID();
      const first = await harness.payments.createTestPromotionCode(key);

      // Act
      const retry = await harness.payments.createTestPromotionCode(key);
      const another = await harness.payments.createTestPromotionCode(crypto.randomUUID());

      // Assert
      expect(retry).toEqual(first);
      expect(another.code).not.toBe(first.code);
      const { data } = await harness.stripe.promotionCodes.list({ code: first.code });
      expect(data.map((promotion) => promotion.id)).toEqual([first.id]);
    });

    it('refuses a key Stripe first saw with other parameters as IdempotencyKeyReusedError', async () => {
      // Arrange: the key's coupon step already sent, with another discount.
      const key = crypto.randomUUID();
      await harness.stripe.coupons.create(
        { percent_off: 50, duration: 'once' },
        { idempotencyKey: `${key}-coupon` },
      );

      // Act
      const attempt = harness.payments.createTestPromotionCode(key);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    });

    it('creates a 100 % code usable 10 times, on a coupon that applies once', async () => {
      // Act
      const created = await harness.payments.createTestPromotionCode(null);

      // Assert
      expect(created).toMatchObject({
        percentOff: TEST_PROMO.percentOff,
        maxRedemptions: TEST_PROMO.maxRedemptions,
      });
      expect(created.code).toMatch(/^TEST[A-Z2-9]{8}$/);
      const { data } = await harness.stripe.promotionCodes.list({
        code: created.code,
        expand: ['data.promotion.coupon'],
      });
      expect(data[0]?.promotion.coupon).toMatchObject({ percent_off: 100, duration: 'once', valid: true });
    });

    it('finds a code whatever the case it is typed in', async () => {
      // Arrange
      const created = await harness.payments.createTestPromotionCode(null);

      // Act
      const found = await harness.payments.findActivePromotionCode(created.code.toLowerCase());

      // Assert
      expect(found).toEqual({
        id: created.id,
        code: created.code,
        active: true,
        timesRedeemed: 0,
        maxRedemptions: TEST_PROMO.maxRedemptions,
      });
    });

    it('finds nothing for an unknown code', async () => {
      // Act
      const found = await harness.payments.findActivePromotionCode('INCONNU-123');

      // Assert
      expect(found).toBeNull();
    });

    it('counts each paid checkout as a redemption and refuses an 11th use', async () => {
      // Arrange
      const created = await harness.payments.createTestPromotionCode(null);
      for (let use = 0; use < TEST_PROMO.maxRedemptions; use++) await paidCheckout(created.id);

      // Act
      const found = await harness.payments.findActivePromotionCode(created.code);
      const eleventh = harness.payments.createCheckoutSession(
        checkoutInput(uniqueEmail('cabinet'), created.id),
      );

      // Assert
      expect(found).toMatchObject({ timesRedeemed: 10, maxRedemptions: 10 });
      await expect(eleventh).rejects.toBeInstanceOf(PromotionCodeRefusedError);
    });
  });

  describe('after payment', () => {
    it('shows the checkout complete with its customer and subscription', async () => {
      // Act
      const { email, session } = await paidCheckout();

      // Assert
      expect(session).toMatchObject({ status: 'complete', paymentStatus: 'paid', email });
      expect(session.customerId).toMatch(/^cus_/);
      expect(session.subscriptionId).toMatch(/^sub_/);
    });

    it('needs no payment when a 100 % code brings the first invoice to zero', async () => {
      // Arrange
      const promotion = await harness.payments.createTestPromotionCode(null);

      // Act
      const { session } = await paidCheckout(promotion.id);

      // Assert
      expect(session.paymentStatus).toBe('no_payment_required');
    });

    it('reads the subscription: active, paid for one month, with the checkout metadata', async () => {
      // Arrange
      const { session } = await paidCheckout();

      // Act
      const subscription = await harness.payments.retrieveSubscription(session.subscriptionId!);

      // Assert
      expect(subscription).toMatchObject({
        id: session.subscriptionId,
        status: 'active',
        customerId: session.customerId,
        metadata: { product: 'license', licenseType: 'lawyer' },
      });
      const start = subscription!.currentPeriodStart!;
      const end = subscription!.currentPeriodEnd!;
      const oneMonthLater = new Date(start);
      oneMonthLater.setUTCMonth(oneMonthLater.getUTCMonth() + 1);
      expect(end.getTime()).toBeLessThanOrEqual(oneMonthLater.getTime());
      expect(end.getTime() - start.getTime()).toBeGreaterThanOrEqual(28 * 24 * 3600 * 1000);
    });

    it('finds nothing for an unknown checkout session or subscription', async () => {
      // Act
      const session = await harness.payments.retrieveCheckoutSession('cs_test_unknown');
      const subscription = await harness.payments.retrieveSubscription('sub_unknown');

      // Assert
      expect(session).toBeNull();
      expect(subscription).toBeNull();
    });
  });

  describe('createPortalSession', () => {
    it('opens the customer portal of the customer, coming back to the site', async () => {
      // Arrange
      const { session } = await paidCheckout();

      // Act
      const portal = await harness.payments.createPortalSession(
        session.customerId!,
        'http://localhost:3000/lawyer/settings',
      );

      // Assert
      expect(portal.url).toMatch(new RegExp(`^${harness.standIn.url}/portal/bps_`));
      const page = await (await fetch(portal.url)).text();
      expect(page).toContain(session.subscriptionId);
      expect(page).toContain('http://localhost:3000/lawyer/settings');
    });

    it('fails with a PaymentsError for an unknown customer', async () => {
      // Act
      const attempt = harness.payments.createPortalSession(
        'cus_unknown',
        'http://localhost:3000/lawyer/settings',
      );

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(PaymentsError);
    });
  });

  describe('cancelSubscription', () => {
    it('cancels at once and sends customer.subscription.deleted', async () => {
      // Arrange
      const { session } = await paidCheckout();

      // Act
      const canceled = await harness.payments.cancelSubscription(session.subscriptionId!);
      await harness.standIn.idle();

      // Assert
      expect(canceled.status).toBe('canceled');
      const deleted = harness.standIn.deliveries.filter(
        (delivery) =>
          delivery.event.type === 'customer.subscription.deleted' &&
          delivery.event.data.object.id === session.subscriptionId,
      );
      expect(deleted).toHaveLength(1);
    });

    it('returns the subscription as it is when it is already cancelled', async () => {
      // Arrange
      const { session } = await paidCheckout();
      await harness.payments.cancelSubscription(session.subscriptionId!);

      // Act
      const again = await harness.payments.cancelSubscription(session.subscriptionId!);

      // Assert
      expect(again.status).toBe('canceled');
    });
  });

  describe('failures', () => {
    it('wraps a refused API key into a PaymentsError', async () => {
      // Arrange
      const payments = new StripePayments({
        apiKey: 'sk_test_wrong',
        webhookSecret: harness.webhookSecret,
        ...harness.standIn.connection,
      });

      // Act
      const attempt = payments.findActivePromotionCode('TEST');

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(PaymentsError);
    });

    it('wraps an unreachable Stripe into a PaymentsError', async () => {
      // Arrange
      const payments = new StripePayments({
        apiKey: 'sk_test_anything',
        webhookSecret: harness.webhookSecret,
        host: '127.0.0.1',
        port: await freePort(),
        protocol: 'http',
        timeoutMs: 2_000,
      });

      // Act
      const attempt = payments.createCheckoutSession(checkoutInput(uniqueEmail('cabinet')));

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(PaymentsError);
    });
  });
});
