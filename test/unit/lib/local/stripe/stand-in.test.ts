import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  newWebhookSecret,
  type StripeStandIn,
  startStripeStandIn,
} from '../../../../../lib/local/stripe/stand-in';
import { subscriptionOfDelivery } from '../../../../support/payments';
import { answerOk, type Receiver, type ReceiverHandler, startReceiver } from '../../../../support/receiver';

const API_KEY = 'sk_test_stand_in_http';
const SUCCESS_URL = 'http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}';

/** The checkout the product creates, form-encoded as the SDK sends it. */
const checkoutForm = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    mode: 'subscription',
    customer_email: 'cabinet@example.com',
    'line_items[0][price_data][currency]': 'eur',
    'line_items[0][price_data][unit_amount]': '15000',
    'line_items[0][price_data][recurring][interval]': 'month',
    'line_items[0][price_data][product_data][name]': 'Abonnement mensuel',
    'line_items[0][quantity]': '1',
    'line_items[1][price_data][currency]': 'eur',
    'line_items[1][price_data][unit_amount]': '95000',
    'line_items[1][price_data][product_data][name]': 'Licence',
    'line_items[1][quantity]': '1',
    success_url: SUCCESS_URL,
    cancel_url: 'http://localhost:3000/login',
    'metadata[product]': 'license',
    ...overrides,
  });

/** The webhook endpoint of the product on a test receiver. */
const webhookUrlOf = (receiver: Receiver) => `${receiver.origin}/api/stripe-webhook`;

/** Refuses the first delivery with a 500, then answers as the product does. */
function refusingFirst(): ReceiverHandler {
  let calls = 0;
  return (request, response, body) => {
    calls += 1;
    if (calls > 1) return answerOk(request, response, body);
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end('{}');
  };
}

describe('the local Stripe stand-in over HTTP', () => {
  const webhookSecret = newWebhookSecret();
  let receiver: Receiver;
  let standIn: StripeStandIn;
  /** How far the stand-in's clock is ahead of the real one (a key's 24 hours). */
  let clockAheadMs = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    standIn = await startStripeStandIn({
      now: () => new Date(Date.now() + clockAheadMs),
      webhookSecret,
      webhookUrl: webhookUrlOf(receiver),
      apiKey: API_KEY,
    });
  });

  afterAll(async () => {
    await standIn.stop();
    await receiver.close();
  });

  const api = (method: string, path: string, body?: URLSearchParams, headers: Record<string, string> = {}) =>
    fetch(`${standIn.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      ...(body ? { body: body.toString() } : {}),
    });

  async function createCheckout() {
    const response = await api('POST', '/v1/checkout/sessions', checkoutForm());
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string; url: string };
  }

  async function paidSubscription(): Promise<string> {
    const session = await createCheckout();
    await standIn.pay(session.id);
    const paid = (await (await api('GET', `/v1/checkout/sessions/${session.id}`)).json()) as {
      subscription: string;
    };
    return paid.subscription;
  }

  const eventsFor = (objectId: string) =>
    standIn.deliveries
      .filter((delivery) => delivery.event.data.object.id === objectId)
      .map((delivery) => delivery.event.type);

  describe('authentication', () => {
    it('refuses a call without an API key with a 401 in Stripe’s error shape', async () => {
      // Act
      const response = await fetch(`${standIn.url}/v1/subscriptions/sub_1`);

      // Assert
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toContain('You did not provide an API key');
    });

    it('refuses another key with a 401 that does not echo it', async () => {
      // Act
      const response = await api('GET', '/v1/subscriptions/sub_1', undefined, {
        authorization: 'Bearer sk_test_another_key_abcd',
      });

      // Assert
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).not.toContain('another_key');
    });
  });

  describe('request validation', () => {
    it.each([
      ['a missing line_items', { omit: 'line_items' }, 'parameter_missing', 'line_items'],
      ['an unknown parameter', { add: ['coupon', 'X'] }, 'parameter_unknown', 'coupon'],
      ['an invalid success_url', { add: ['success_url', 'pas une url'] }, 'url_invalid', 'success_url'],
      ['an invalid e-mail', { add: ['customer_email', 'pas-un-email'] }, 'email_invalid', 'customer_email'],
      [
        'a non-integer amount',
        { add: ['line_items[0][price_data][unit_amount]', '150.5'] },
        'parameter_invalid_integer',
        'line_items[0][price_data][unit_amount]',
      ],
      [
        'an unknown promotion code',
        { add: ['discounts[0][promotion_code]', 'promo_nope'] },
        'resource_missing',
        'discounts[0][promotion_code]',
      ],
    ] as const)('refuses %s with a 400 naming the parameter', async (_label, change, code, param) => {
      // Arrange
      const form = checkoutForm();
      if ('omit' in change)
        for (const key of [...form.keys()]) if (key.startsWith(change.omit)) form.delete(key);
      if ('add' in change) form.set(change.add[0], change.add[1]);

      // Act
      const response = await api('POST', '/v1/checkout/sessions', form);

      // Assert
      expect(response.status).toBe(code === 'resource_missing' ? 404 : 400);
      const body = (await response.json()) as { error: Record<string, string> };
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    });

    it('refuses a promotion code with characters Stripe does not allow', async () => {
      // Arrange
      const coupon = (await (
        await api('POST', '/v1/coupons', new URLSearchParams({ percent_off: '100', duration: 'once' }))
      ).json()) as { id: string };

      // Act
      const response = await api(
        'POST',
        '/v1/promotion_codes',
        new URLSearchParams({ 'promotion[type]': 'coupon', 'promotion[coupon]': coupon.id, code: 'TEST-1' }),
      );

      // Assert
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { param: string } }).error.param).toBe('code');
    });

    it('refuses a subscription checkout without a recurring price', async () => {
      // Arrange
      const form = checkoutForm();
      form.delete('line_items[0][price_data][recurring][interval]');

      // Act
      const response = await api('POST', '/v1/checkout/sessions', form);

      // Assert
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string; param: string } };
      expect(body.error.param).toBe('line_items');
      expect(body.error.message).toContain('at least one recurring price');
    });

    it('answers 404 resource_missing for an unknown subscription', async () => {
      // Act
      const response = await api('GET', '/v1/subscriptions/sub_unknown');

      // Assert
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: Record<string, string> };
      expect(body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: "No such subscription: 'sub_unknown'",
      });
    });

    it('answers 404 for a call the product does not make', async () => {
      // Act
      const response = await api('GET', '/v1/charges');

      // Assert
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain('Unrecognized request URL');
    });

    it('surfaces as the SDK’s typed errors', async () => {
      // Arrange
      const stripe = new Stripe(API_KEY, { ...standIn.connection, maxNetworkRetries: 0 });

      // Act
      const attempt = stripe.subscriptions.retrieve('sub_unknown');

      // Assert
      await expect(attempt).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'resource_missing',
        statusCode: 404,
      });
    });
  });

  describe('idempotency keys', () => {
    it('replays the first answer to the same key and body', async () => {
      // Arrange
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const first = (await (await api('POST', '/v1/checkout/sessions', checkoutForm(), headers)).json()) as {
        id: string;
      };

      // Act
      const replay = await api('POST', '/v1/checkout/sessions', checkoutForm(), headers);

      // Assert
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe(first.id);
    });

    it('refuses the same key with other parameters', async () => {
      // Arrange
      const headers = { 'idempotency-key': crypto.randomUUID() };
      await api('POST', '/v1/checkout/sessions', checkoutForm(), headers);

      // Act
      const other = await api(
        'POST',
        '/v1/checkout/sessions',
        checkoutForm({ customer_email: 'autre@example.com' }),
        headers,
      );

      // Assert
      expect(other.status).toBe(400);
      expect(((await other.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
    });

    it('refuses the same key on another endpoint, even with the same parameters', async () => {
      // Arrange
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const coupon = new URLSearchParams({ percent_off: '100', duration: 'once' });
      expect((await api('POST', '/v1/coupons', coupon, headers)).status).toBe(200);

      // Act
      const other = await api('POST', '/v1/promotion_codes', coupon, headers);

      // Assert
      expect(other.status).toBe(400);
      const { error } = (await other.json()) as { error: { type: string; message: string } };
      expect(error.type).toBe('idempotency_error');
      expect(error.message).toContain("'POST /v1/coupons' vs 'POST /v1/promotion_codes'");
    });

    it('refuses a key longer than 255 characters and keeps no result for it', async () => {
      // Arrange
      const coupon = new URLSearchParams({ percent_off: '100', duration: 'once' });

      // Act
      const refused = await api('POST', '/v1/coupons', coupon, { 'idempotency-key': 'k'.repeat(256) });
      const longest = await api('POST', '/v1/coupons', coupon, { 'idempotency-key': 'k'.repeat(255) });

      // Assert
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { param: string } }).error.param).toBe('Idempotency-Key');
      expect(longest.status).toBe(200);
    });

    it('keeps a failed first answer, and replays it rather than running the request again', async () => {
      // Arrange: a promotion code on a coupon that does not exist yet.
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const couponId = `retry${Date.now()}`;
      const form = new URLSearchParams({ 'promotion[type]': 'coupon', 'promotion[coupon]': couponId });
      expect((await api('POST', '/v1/promotion_codes', form, headers)).status).toBe(404);
      const coupon = new URLSearchParams({ id: couponId, percent_off: '100', duration: 'once' });
      expect((await api('POST', '/v1/coupons', coupon)).status).toBe(200);

      // Act
      const retry = await api('POST', '/v1/promotion_codes', form, headers);

      // Assert
      expect(retry.status).toBe(404);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    });

    it('forgets a key after 24 hours: the same key then runs the request anew', async () => {
      // Arrange
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const coupon = () => new URLSearchParams({ percent_off: '100', duration: 'once' });
      const first = (await (await api('POST', '/v1/coupons', coupon(), headers)).json()) as { id: string };

      // Act
      clockAheadMs = 24 * 3600 * 1000;
      const later = await api('POST', '/v1/coupons', coupon(), headers).finally(() => {
        clockAheadMs = 0;
      });

      // Assert
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect(((await later.json()) as { id: string }).id).not.toBe(first.id);
    });
  });

  describe('hosted checkout page', () => {
    it('shows the amounts and a Payer button, without script, under a strict CSP', async () => {
      // Arrange
      const session = await createCheckout();

      // Act
      const response = await fetch(session.url);

      // Assert
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      const page = await response.text();
      expect(page).toContain('<html lang="fr">');
      expect(page).toContain('>Payer</button>');
      expect(page).toContain('950,00');
      expect(page).toContain('150,00');
      expect(page).not.toContain('<script');
    });

    it('on Payer, sends the signed events in order and redirects to the success URL', async () => {
      // Arrange
      const session = await createCheckout();
      const before = receiver.calls.length;

      // Act
      const response = await fetch(session.url, { method: 'POST', redirect: 'manual' });

      // Assert
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(SUCCESS_URL.replace('{CHECKOUT_SESSION_ID}', session.id));
      const delivered = receiver.calls.slice(before);
      const stripe = new Stripe(API_KEY);
      const events = delivered.map((webhook) =>
        stripe.webhooks.constructEvent(
          webhook.body.toString('utf8'),
          webhook.headers['stripe-signature'] as string,
          webhookSecret,
        ),
      );
      expect(events.map((event) => event.type)).toEqual(['checkout.session.completed', 'invoice.paid']);
      expect(events[0]?.data.object).toMatchObject({
        id: session.id,
        status: 'complete',
        payment_status: 'paid',
      });
    });

    it('retries a delivery the webhook refused, freshly signed', async () => {
      // Arrange
      const refusingOnce = await startReceiver(refusingFirst());
      const retrying = await startStripeStandIn({
        webhookSecret,
        webhookUrl: webhookUrlOf(refusingOnce),
        apiKey: API_KEY,
      });
      try {
        const created = await fetch(`${retrying.url}/v1/checkout/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${API_KEY}` },
          body: checkoutForm(),
        });
        const session = (await created.json()) as { id: string };

        // Act
        await retrying.pay(session.id);

        // Assert
        expect(retrying.deliveries[0]).toMatchObject({
          status: 'delivered',
          attempts: 2,
          lastStatusCode: 200,
        });
        expect(refusingOnce.calls[1]?.body).toEqual(refusingOnce.calls[0]?.body);
        const stripe = new Stripe(API_KEY);
        const retried = refusingOnce.calls[1]!;
        expect(() =>
          stripe.webhooks.constructEvent(
            retried.body.toString('utf8'),
            retried.headers['stripe-signature'] as string,
            webhookSecret,
          ),
        ).not.toThrow();
      } finally {
        await retrying.stop();
        await refusingOnce.close();
      }
    });

    it('sends the buyer back to the success URL when the page is paid twice', async () => {
      // Arrange
      const session = await createCheckout();
      await fetch(session.url, { method: 'POST', redirect: 'manual' });
      const eventsBefore = standIn.deliveries.length;

      // Act
      const again = await fetch(`${standIn.url}/checkout/${session.id}`, {
        method: 'POST',
        redirect: 'manual',
      });

      // Assert
      expect(again.status).toBe(303);
      expect(standIn.deliveries).toHaveLength(eventsBefore);
    });
  });

  describe("testers' lifecycle endpoints", () => {
    it('fail-payment: past due, invoice.payment_failed then customer.subscription.updated', async () => {
      // Arrange
      const subscriptionId = await paidSubscription();

      // Act
      const response = await fetch(`${standIn.url}/_stand-in/subscriptions/${subscriptionId}/fail-payment`, {
        method: 'POST',
      });

      // Assert
      expect(response.status).toBe(200);
      expect(((await response.json()) as { status: string }).status).toBe('past_due');
      const failed = standIn.deliveries.filter(
        (delivery) =>
          delivery.event.type === 'invoice.payment_failed' &&
          subscriptionOfDelivery(delivery) === subscriptionId,
      );
      expect(failed).toHaveLength(1);
      expect(eventsFor(subscriptionId)).toEqual(['customer.subscription.updated']);
    });

    it('renew after a failed payment pays the open invoice and makes the subscription active again', async () => {
      // Arrange
      const subscriptionId = await paidSubscription();
      await standIn.act(subscriptionId, 'fail-payment');
      const stripe = new Stripe(API_KEY, { ...standIn.connection });
      const pastDue = await stripe.subscriptions.retrieve(subscriptionId);

      // Act
      await standIn.act(subscriptionId, 'renew');

      // Assert
      const renewed = await stripe.subscriptions.retrieve(subscriptionId);
      expect(renewed.status).toBe('active');
      expect(renewed.items.data[0]?.current_period_end).toBe(pastDue.items.data[0]?.current_period_end);
    });

    it('mark-unpaid then delete: unpaid, then canceled with customer.subscription.deleted', async () => {
      // Arrange
      const subscriptionId = await paidSubscription();
      await standIn.act(subscriptionId, 'fail-payment');

      // Act
      await standIn.act(subscriptionId, 'mark-unpaid');
      const deleted = await fetch(`${standIn.url}/_stand-in/subscriptions/${subscriptionId}/delete`, {
        method: 'POST',
        headers: { accept: 'text/html' },
        redirect: 'manual',
      });

      // Assert
      expect(deleted.status).toBe(303);
      expect(eventsFor(subscriptionId)).toEqual([
        'customer.subscription.updated',
        'customer.subscription.updated',
        'customer.subscription.deleted',
      ]);
      const again = await fetch(`${standIn.url}/_stand-in/subscriptions/${subscriptionId}/delete`, {
        method: 'POST',
      });
      expect(again.status).toBe(400);
    });

    it('lists subscriptions on the index page with a button per lifecycle event', async () => {
      // Arrange
      const subscriptionId = await paidSubscription();

      // Act
      const page = await (await fetch(`${standIn.url}/_stand-in`)).text();

      // Assert
      expect(page).toContain(subscriptionId);
      for (const action of ['renew', 'fail-payment', 'mark-unpaid', 'delete']) {
        expect(page).toContain(`/_stand-in/subscriptions/${subscriptionId}/${action}`);
      }
      expect(page).not.toContain('<script');
    });
  });
});
