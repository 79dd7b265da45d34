import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeEventRepository } from '../../../../functions/data/billing/stripe-events';
import { SubscriptionRepository } from '../../../../functions/data/billing/subscriptions';
import type { LicenseRepository } from '../../../../functions/data/identity/licenses';
import type { WebhookOutcome } from '../../../../functions/domain/billing/payment-events';
import type { PaymentEvent } from '../../../../functions/domain/billing/ports';
import type { LicenseRecord } from '../../../../functions/domain/identity/ports';
import type { BillingServices } from '../../../../functions/runtime/services/billing';
import { signInServiceOf } from '../../../../functions/runtime/services/identity';
import type { LicenseKeyVault } from '../../../../functions/security/license-key-vault';
import {
  type SubscriptionAction,
  signWebhookPayload,
  type WebhookDelivery,
} from '../../../../lib/local/stripe/stand-in';
import { MESSAGES } from '../../../../shared/messages';
import type { MemoryMailer, TestApp } from '../../../support/app';
import { type BillingTestbed, startBillingTestbed } from '../../../support/billing';
import {
  checkoutSessionIdOf,
  PUBLIC_URL,
  permutations,
  subscriptionOfDelivery,
  verifiedEvent,
} from '../../../support/payments';
import { scanTable, uniqueEmail } from '../../../support/records';
import type { StandInHarness } from '../../../support/stripe';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('Stripe webhooks applied by the billing service', () => {
  let bed: BillingTestbed;
  let app: TestApp;
  let harness: StandInHarness;
  let vault: LicenseKeyVault;
  let mailer: MemoryMailer;
  let service: BillingServices;
  let licenses: LicenseRepository;

  beforeAll(async () => {
    bed = await startBillingTestbed();
    ({ app, harness, vault, mailer, service, licenses } = bed);
  });

  afterAll(() => bed.stop());

  /** A firm buys a licence on the hosted page; the events it sends are returned, not delivered. */
  async function purchase() {
    const email = uniqueEmail('cabinet');
    const { url } = await service.checkout.createCheckout({ email, paymentType: 'initial' });
    const sessionId = checkoutSessionIdOf(url);
    const first = harness.standIn.deliveries.length;
    await harness.standIn.pay(sessionId);
    const [completed, paid] = harness.standIn.deliveries.slice(first) as [WebhookDelivery, WebhookDelivery];
    return { email, sessionId, subscriptionId: subscriptionOfDelivery(completed)!, completed, paid };
  }

  /** Drives the subscription at the stand-in and returns the events that sends. */
  async function act(subscriptionId: string, action: SubscriptionAction): Promise<WebhookDelivery[]> {
    const first = harness.standIn.deliveries.length;
    await harness.standIn.act(subscriptionId, action);
    return harness.standIn.deliveries.slice(first);
  }

  const deliver = (delivery: WebhookDelivery) =>
    service.paymentEvents.handleWebhookEvent(verifiedEvent(harness.payments, delivery));

  /** Applies events concurrently and, as Stripe does, delivers again those answered `busy`. */
  async function applyAll(events: readonly PaymentEvent[]): Promise<WebhookOutcome[]> {
    const outcomes: WebhookOutcome[] = [];
    let pending = [...events];
    for (let round = 0; pending.length > 0 && round < 50; round++) {
      const results = await Promise.all(
        pending.map((event) => service.paymentEvents.handleWebhookEvent(event)),
      );
      outcomes.push(...results);
      pending = pending.filter((_event, index) => results[index] === 'busy');
    }
    expect(pending).toEqual([]);
    return outcomes;
  }

  const deliverAll = (deliveries: readonly WebhookDelivery[]) =>
    applyAll(deliveries.map((delivery) => verifiedEvent(harness.payments, delivery)));

  async function licensesOf(email: string): Promise<LicenseRecord[]> {
    const items = await scanTable(app.table);
    const hashes = items
      .filter((item) => item.entity === 'License' && item.userEmail === email)
      .map((item) => item.keyHash as string);
    return Promise.all(hashes.map(async (hash) => (await licenses.getByHash(hash))!));
  }

  async function theLicenseOf(email: string): Promise<LicenseRecord> {
    const found = await licensesOf(email);
    expect(found).toHaveLength(1);
    return found[0]!;
  }

  const stateOf = ({ isActive, subscriptionStatus, nextPaymentDue }: LicenseRecord) => ({
    isActive,
    subscriptionStatus,
    nextPaymentDue,
  });

  const periodOf = async (subscriptionId: string) =>
    (await harness.payments.retrieveSubscription(subscriptionId))!;

  const signIn = (license: LicenseRecord) =>
    signInServiceOf(app, app.keys).verify(vault.decrypt(license.keyCiphertext), '198.51.100.9');

  describe('checkout.session.completed', () => {
    it('issues an active lawyer licence, paid until the end of the first month', async () => {
      // Arrange
      const { email, subscriptionId, completed } = await purchase();

      // Act
      const outcome = await deliver(completed);

      // Assert
      expect(outcome).toBe('applied');
      const license = await theLicenseOf(email);
      const subscription = await periodOf(subscriptionId);
      expect(license).toMatchObject({
        licenseType: 'lawyer',
        userEmail: email,
        isActive: true,
        subscriptionStatus: 'active',
        nextPaymentDue: subscription.currentPeriodEnd!.toISOString(),
      });
      expect(vault.decrypt(license.keyCiphertext)).toMatch(/^NOTARY-[A-Z0-9]{8}$/);
    });

    it('e-mails the key in French, and nothing else that is secret', async () => {
      // Arrange
      const { email, completed } = await purchase();

      // Act
      await deliver(completed);

      // Assert
      const license = await theLicenseOf(email);
      const licenseKey = vault.decrypt(license.keyCiphertext);
      const [message] = mailer.to(email);
      expect(mailer.to(email)).toHaveLength(1);
      expect(message?.subject).toBe('Assistant IA juridique : votre clé de licence');
      expect(message?.text).toContain(`Votre clé de licence : ${licenseKey}`);
      expect(message?.text).toContain(`${PUBLIC_URL}/login`);
      for (const secret of [license.keyHash, license.keyCiphertext, 'sk_test', harness.webhookSecret]) {
        expect(message?.text).not.toContain(secret);
      }
    });

    it('issues a licence whose key signs in', async () => {
      // Arrange
      const { email, completed } = await purchase();
      await deliver(completed);

      // Act
      const outcome = await signIn(await theLicenseOf(email));

      // Assert
      expect(outcome.reply).toMatchObject({ valid: true, licenseType: 'lawyer', userEmail: email });
    });
  });

  describe('idempotency', () => {
    it('each event delivered three times concurrently yields one licence and one e-mail', async () => {
      // Arrange
      const { email, completed, paid } = await purchase();
      const threeTimes = [completed, paid, completed, paid, completed, paid];

      // Act
      const outcomes = await deliverAll(threeTimes);

      // Assert
      expect(await licensesOf(email)).toHaveLength(1);
      expect(mailer.to(email)).toHaveLength(1);
      // Once each; the invoice is 'ignored' when it arrives before the licence exists.
      expect(outcomes.filter((outcome) => outcome === 'applied' || outcome === 'ignored')).toHaveLength(2);
      expect(outcomes.filter((outcome) => outcome === 'applied').length).toBeGreaterThanOrEqual(1);
      const events = new StripeEventRepository(app.table);
      expect(await events.isApplied(completed.event.id)).toBe(true);
      expect(await events.isApplied(paid.event.id)).toBe(true);
    });

    it('answers a replay of an applied event as a duplicate and changes nothing', async () => {
      // Arrange
      const { email, completed } = await purchase();
      await deliver(completed);
      const before = await theLicenseOf(email);

      // Act
      const outcome = await deliver(completed);

      // Assert
      expect(outcome).toBe('duplicate');
      expect(await theLicenseOf(email)).toEqual(before);
      expect(mailer.to(email)).toHaveLength(1);
    });

    it('issues one licence per checkout even from two different events about it', async () => {
      // Arrange
      const { email, sessionId, subscriptionId, completed } = await purchase();
      const payload = JSON.stringify({
        id: `evt_async_${crypto.randomUUID()}`,
        object: 'event',
        type: 'checkout.session.async_payment_succeeded',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: sessionId, object: 'checkout.session', subscription: subscriptionId } },
      });
      const asyncSucceeded = harness.payments.constructWebhookEvent(
        payload,
        signWebhookPayload(payload, harness.webhookSecret, Math.floor(Date.now() / 1000)),
      );

      // Act
      const outcomes = await applyAll([verifiedEvent(harness.payments, completed), asyncSucceeded]);

      // Assert
      // Once each; the invoice is 'ignored' when it arrives before the licence exists.
      expect(outcomes.filter((outcome) => outcome === 'applied' || outcome === 'ignored')).toHaveLength(2);
      expect(outcomes.filter((outcome) => outcome === 'applied').length).toBeGreaterThanOrEqual(1);
      expect(await licensesOf(email)).toHaveLength(1);
      expect(mailer.to(email)).toHaveLength(1);
    });

    it('retries a failed e-mail on the next delivery and still sends it once', async () => {
      // Arrange
      const { email, completed } = await purchase();
      mailer.failures = 1;

      // Act
      const failed = deliver(completed);
      await expect(failed).rejects.toThrow('SES indisponible');
      const redelivered = await deliver(completed);
      const replayed = await deliver(completed);

      // Assert
      expect(redelivered).toBe('applied');
      expect(replayed).toBe('duplicate');
      expect(await licensesOf(email)).toHaveLength(1);
      expect(mailer.to(email)).toHaveLength(1);
    });
  });

  describe('ordering', () => {
    it('every order of completed, invoice.paid, payment_failed and subscription.deleted ends the same', async () => {
      // Arrange
      const orders = permutations(['completed', 'paid', 'failed', 'deleted'] as const);
      const runs = [];
      for (const order of orders) {
        const bought = await purchase();
        const failed = (await act(bought.subscriptionId, 'fail-payment')).find(
          (delivery) => delivery.event.type === 'invoice.payment_failed',
        )!;
        const [deleted] = await act(bought.subscriptionId, 'delete');
        const events = { completed: bought.completed, paid: bought.paid, failed, deleted: deleted! };
        runs.push({ bought, sequence: order.map((name) => events[name]) });
      }

      // Act
      for (const run of runs) for (const delivery of run.sequence) await deliver(delivery);

      // Assert
      expect(runs).toHaveLength(24);
      const subscriptions = new SubscriptionRepository(app.table);
      for (const { bought } of runs) {
        const license = await theLicenseOf(bought.email);
        expect(stateOf(license)).toEqual({
          isActive: false,
          subscriptionStatus: 'canceled',
          nextPaymentDue: null,
        });
        const billing = await subscriptions.billingOfLicense(license.keyHash);
        expect(billing?.purgeAfter).not.toBeNull();
        expect(mailer.to(bought.email).map((message) => message.subject)).toEqual([
          'Assistant IA juridique : votre clé de licence',
          'Assistant IA juridique : fin de votre abonnement',
        ]);
      }
    });

    it('every order of completed, invoice.paid and payment_failed ends past due, with access', async () => {
      // Arrange
      const runs = [];
      for (const order of permutations(['completed', 'paid', 'failed'] as const)) {
        const bought = await purchase();
        const failed = (await act(bought.subscriptionId, 'fail-payment')).find(
          (delivery) => delivery.event.type === 'invoice.payment_failed',
        )!;
        const events = { completed: bought.completed, paid: bought.paid, failed };
        runs.push({ bought, sequence: order.map((name) => events[name]) });
      }

      // Act
      for (const run of runs) for (const delivery of run.sequence) await deliver(delivery);

      // Assert
      for (const { bought } of runs) {
        const license = await theLicenseOf(bought.email);
        const subscription = await periodOf(bought.subscriptionId);
        expect(stateOf(license)).toEqual({
          isActive: true,
          subscriptionStatus: 'past_due',
          nextPaymentDue: subscription.currentPeriodStart!.toISOString(),
        });
      }
    });
  });

  describe('lifecycle transitions', () => {
    /** A licence bought and applied, with its subscription. */
    async function activeLicense() {
      const bought = await purchase();
      await deliverAll([bought.completed, bought.paid]);
      return bought;
    }

    it('invoice.paid for the next month moves the next payment due and keeps access', async () => {
      // Arrange
      const { email, subscriptionId } = await activeLicense();
      const before = await theLicenseOf(email);

      // Act
      await deliverAll(await act(subscriptionId, 'renew'));

      // Assert
      const after = await theLicenseOf(email);
      const subscription = await periodOf(subscriptionId);
      expect(after.nextPaymentDue).toBe(subscription.currentPeriodEnd!.toISOString());
      expect(Date.parse(after.nextPaymentDue!)).toBeGreaterThan(Date.parse(before.nextPaymentDue!));
      expect(after.isActive).toBe(true);
    });

    it('invoice.payment_failed marks the licence past due, overdue since the missed debit, still signing in', async () => {
      // Arrange
      const { email, subscriptionId } = await activeLicense();
      const missedDebit = (await periodOf(subscriptionId)).currentPeriodEnd!;

      // Act
      const outcomes = await deliverAll(await act(subscriptionId, 'fail-payment'));

      // Assert
      expect(outcomes).toEqual(['applied', 'applied']);
      const license = await theLicenseOf(email);
      expect(stateOf(license)).toEqual({
        isActive: true,
        subscriptionStatus: 'past_due',
        nextPaymentDue: missedDebit.toISOString(),
      });
      expect((await signIn(license)).reply.valid).toBe(true);
    });

    it('a payment after a failure makes the licence active again', async () => {
      // Arrange
      const { email, subscriptionId } = await activeLicense();
      await deliverAll(await act(subscriptionId, 'fail-payment'));

      // Act
      await deliverAll(await act(subscriptionId, 'renew'));

      // Assert
      const license = await theLicenseOf(email);
      const subscription = await periodOf(subscriptionId);
      expect(stateOf(license)).toEqual({
        isActive: true,
        subscriptionStatus: 'active',
        nextPaymentDue: subscription.currentPeriodEnd!.toISOString(),
      });
    });

    it('customer.subscription.updated to unpaid makes the licence inactive and refuses sign-in', async () => {
      // Arrange
      const { email, subscriptionId } = await activeLicense();
      await deliverAll(await act(subscriptionId, 'fail-payment'));

      // Act
      await deliverAll(await act(subscriptionId, 'mark-unpaid'));

      // Assert
      const license = await theLicenseOf(email);
      expect(license).toMatchObject({ isActive: false, subscriptionStatus: 'unpaid' });
      expect((await signIn(license)).reply).toEqual({
        valid: false,
        error: MESSAGES.session.licenseInactive,
      });
    });

    it('customer.subscription.deleted makes the licence inactive and starts the 30-day retention', async () => {
      // Arrange
      const { email, subscriptionId } = await activeLicense();

      // Act
      await deliverAll(await act(subscriptionId, 'delete'));

      // Assert
      const license = await theLicenseOf(email);
      expect(stateOf(license)).toEqual({
        isActive: false,
        subscriptionStatus: 'canceled',
        nextPaymentDue: null,
      });
      expect((await signIn(license)).reply.valid).toBe(false);
      const billing = await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash);
      expect(billing).toMatchObject({
        canceledAt: app.clock.now().toISOString(),
        purgeAfter: new Date(app.clock.now().getTime() + 30 * DAY_MS).toISOString(),
      });
      const [, confirmation] = mailer.to(email);
      expect(confirmation?.text).toContain('Votre abonnement Assistant IA juridique a pris fin le');
    });

    it('answers an event about a subscription that has no licence yet as ignored, writing none', async () => {
      // Arrange
      const { email, paid } = await purchase();

      // Act
      const outcome = await deliver(paid);

      // Assert
      expect(outcome).toBe('ignored');
      expect(await licensesOf(email)).toEqual([]);
    });

    it('ignores event types the product does not listen to, without recording them', async () => {
      // Arrange
      const payload = JSON.stringify({
        id: `evt_other_${crypto.randomUUID()}`,
        object: 'event',
        type: 'customer.created',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: 'cus_1', object: 'customer' } },
      });
      const event = harness.payments.constructWebhookEvent(
        payload,
        signWebhookPayload(payload, harness.webhookSecret, Math.floor(Date.now() / 1000)),
      );

      // Act
      const outcome = await service.paymentEvents.handleWebhookEvent(event);

      // Assert
      expect(outcome).toBe('ignored');
      expect(await new StripeEventRepository(app.table).isApplied(event.id)).toBe(false);
    });
  });
});
