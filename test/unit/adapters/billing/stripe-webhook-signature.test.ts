import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StripePayments,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../../../../functions/adapters/billing/stripe-payments';
import { WebhookSignatureInvalidError } from '../../../../functions/domain/billing/billing-errors';
import {
  newWebhookSecret,
  signWebhookPayload,
  type WebhookDelivery,
} from '../../../../lib/local/stripe/stand-in';
import { checkoutInput, type StandInHarness, startHarness, TEST_API_KEY } from '../../../support/stripe';

describe('webhook signature verification', () => {
  let harness: StandInHarness;
  let completed: WebhookDelivery;
  let sessionId: string;

  beforeAll(async () => {
    harness = await startHarness();
    const link = await harness.payments.createCheckoutSession(checkoutInput('signature@example.com'));
    sessionId = link.id;
    await harness.standIn.pay(link.id);
    completed = harness.standIn.deliveries.find(
      (delivery) => delivery.event.type === 'checkout.session.completed',
    )!;
  });

  afterAll(async () => {
    await harness.stop();
  });

  /** The port verifying as if `secondsLater` had passed since the stand-in signed. */
  const paymentsAt = (secondsLater: number, webhookSecret = harness.webhookSecret) => {
    const signedAt = Number(/t=(\d+)/.exec(completed.signature)?.[1]) * 1000;
    return new StripePayments({
      apiKey: TEST_API_KEY,
      webhookSecret,
      ...harness.standIn.connection,
      now: () => signedAt + secondsLater * 1000,
    });
  };

  it('accepts the event the stand-in signed and reduces it to what it is about', () => {
    // Act
    const event = harness.payments.constructWebhookEvent(completed.payload, completed.signature);

    // Assert
    expect(event).toEqual({
      id: completed.event.id,
      type: 'checkout.session.completed',
      checkoutSessionId: sessionId,
      subscriptionId: expect.stringMatching(/^sub_/),
    });
  });

  it('signs exactly as Stripe does', () => {
    // Arrange
    const secret = newWebhookSecret();
    const timestamp = 1_790_000_000;
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });

    // Act
    const ours = signWebhookPayload(payload, secret, timestamp);

    // Assert
    const stripe = new Stripe(TEST_API_KEY);
    expect(ours).toBe(stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }));
  });

  it('refuses a tampered body', () => {
    // Arrange
    const tampered = completed.payload.replace('"livemode": false', '"livemode": true');

    // Act
    const verify = () => harness.payments.constructWebhookEvent(tampered, completed.signature);

    // Assert
    expect(tampered).not.toBe(completed.payload);
    expect(verify).toThrow(WebhookSignatureInvalidError);
  });

  it('refuses an event signed with another secret', () => {
    // Arrange
    const otherSecretSignature = signWebhookPayload(
      completed.payload,
      newWebhookSecret(),
      Math.floor(Date.now() / 1000),
    );

    // Act
    const verify = () => harness.payments.constructWebhookEvent(completed.payload, otherSecretSignature);

    // Assert
    expect(verify).toThrow(WebhookSignatureInvalidError);
  });

  it('refuses an event verified with another secret', () => {
    // Act
    const verify = () =>
      paymentsAt(0, newWebhookSecret()).constructWebhookEvent(completed.payload, completed.signature);

    // Assert
    expect(verify).toThrow(WebhookSignatureInvalidError);
  });

  it(`refuses a timestamp older than ${WEBHOOK_TOLERANCE_SECONDS} seconds`, () => {
    // Act
    const verify = () =>
      paymentsAt(WEBHOOK_TOLERANCE_SECONDS + 1).constructWebhookEvent(completed.payload, completed.signature);

    // Assert
    expect(verify).toThrow(WebhookSignatureInvalidError);
  });

  it.each([
    ['an hour ahead', 3_600],
    ['just past the tolerance ahead', WEBHOOK_TOLERANCE_SECONDS + 1],
    ['far ahead (t=10^15)', 10 ** 15],
  ])('refuses a signature dated in the future, %s, like a stale one', (_label, secondsAhead) => {
    // Arrange: signed with the right secret, dated ahead of the verifier's clock.
    const now = Math.floor(Date.now() / 1000);
    const signature = signWebhookPayload(completed.payload, harness.webhookSecret, now + secondsAhead);
    const payments = new StripePayments({
      apiKey: TEST_API_KEY,
      webhookSecret: harness.webhookSecret,
      ...harness.standIn.connection,
      now: () => now * 1000,
    });

    // Act
    const verify = () => payments.constructWebhookEvent(completed.payload, signature);

    // Assert
    expect(verify).toThrow(WebhookSignatureInvalidError);
  });

  it('accepts a signature dated a little ahead, within the tolerance (clock skew)', () => {
    // Arrange
    const now = Math.floor(Date.now() / 1000);
    const signature = signWebhookPayload(completed.payload, harness.webhookSecret, now + 60);
    const payments = new StripePayments({
      apiKey: TEST_API_KEY,
      webhookSecret: harness.webhookSecret,
      ...harness.standIn.connection,
      now: () => now * 1000,
    });

    // Act
    const event = payments.constructWebhookEvent(completed.payload, signature);

    // Assert
    expect(event.id).toBe(completed.event.id);
  });

  it('accepts a timestamp just inside the tolerance', () => {
    // Act
    const event = paymentsAt(WEBHOOK_TOLERANCE_SECONDS - 1).constructWebhookEvent(
      completed.payload,
      completed.signature,
    );

    // Assert
    expect(event.id).toBe(completed.event.id);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['malformed', 'not-a-signature'],
    ['without v1 signature', `t=${Math.floor(Date.now() / 1000)}`],
  ])('refuses a %s Stripe-Signature header', (_label, header) => {
    // Act
    const verify = () => harness.payments.constructWebhookEvent(completed.payload, header);

    // Assert
    expect(verify).toThrow(WebhookSignatureInvalidError);
  });
});
