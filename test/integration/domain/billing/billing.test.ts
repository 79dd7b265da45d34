import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripePayments } from '../../../../functions/adapters/billing/stripe-payments';
import { SubscriptionRepository } from '../../../../functions/data/billing/subscriptions';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { PaymentProviderUnavailableError } from '../../../../functions/domain/billing/billing-errors';
import { InvalidInputError, NotFoundError } from '../../../../functions/domain/core/errors';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import type { LicenseRecord } from '../../../../functions/domain/identity/ports';
import type { BillingServices } from '../../../../functions/runtime/services/billing';
import type { LicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { freePort } from '../../../../lib/local/free-port';
import type { WebhookDelivery } from '../../../../lib/local/stripe/stand-in';
import { PRICING, TEST_PROMO } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import type { MemoryMailer, TestApp } from '../../../support/app';
import { type BillingTestbed, startBillingTestbed } from '../../../support/billing';
import { checkoutSessionIdOf, PUBLIC_URL, verifiedEvent } from '../../../support/payments';
import { uniqueEmail } from '../../../support/records';
import type { StandInHarness } from '../../../support/stripe';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the billing services', () => {
  let bed: BillingTestbed;
  let app: TestApp;
  let harness: StandInHarness;
  let vault: LicenseKeyVault;
  let mailer: MemoryMailer;
  let service: BillingServices;
  /** The same service with Stripe unreachable. */
  let offline: BillingServices;
  let licenses: LicenseRepository;

  beforeAll(async () => {
    bed = await startBillingTestbed();
    ({ app, harness, vault, mailer, service, licenses } = bed);
    offline = bed.serviceWith(
      new StripePayments({
        apiKey: 'sk_test_offline',
        webhookSecret: harness.webhookSecret,
        host: '127.0.0.1',
        port: await freePort(),
        protocol: 'http',
        timeoutMs: 1_000,
      }),
    );
  });

  afterAll(() => bed.stop());

  const deliver = (delivery: WebhookDelivery) =>
    service.paymentEvents.handleWebhookEvent(verifiedEvent(harness.payments, delivery));

  /** A firm buys a licence (optionally with a promo code) and its events are applied. */
  async function boughtLicense(promoCode?: string): Promise<{ email: string; license: LicenseRecord }> {
    const email = uniqueEmail('cabinet');
    const { url } = await service.checkout.createCheckout({
      email,
      paymentType: 'initial',
      ...(promoCode ? { promoCode } : {}),
    });
    const first = harness.standIn.deliveries.length;
    await harness.standIn.pay(checkoutSessionIdOf(url));
    for (const delivery of harness.standIn.deliveries.slice(first)) await deliver(delivery);
    const license = await licenses.findByUserEmail(email, 'lawyer');
    return { email, license: license! };
  }

  /** A licence issued by hand (an admin's, or the demo lawyer's): no subscription behind it. */
  const handIssuedLicense = async () =>
    (
      await issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseType: 'admin', userEmail: null },
        app.clock.now().toISOString(),
      )
    ).record;

  describe('createCheckout', () => {
    it('returns the hosted checkout URL of a new session for the e-mail', async () => {
      // Arrange
      const email = uniqueEmail('achat');

      // Act
      const reply = await service.checkout.createCheckout({ email, paymentType: 'initial' });

      // Assert
      expect(reply.url).toMatch(new RegExp(`^${harness.standIn.url}/checkout/cs_test_`));
      const session = await harness.stripe.checkout.sessions.retrieve(checkoutSessionIdOf(reply.url));
      expect(session).toMatchObject({
        customer_email: email,
        amount_total: PRICING.initialPaymentCents + PRICING.monthlySubscriptionCents,
        success_url: `${PUBLIC_URL}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${PUBLIC_URL}/login`,
      });
    });

    it('applies a valid promotion code, typed in any case', async () => {
      // Arrange
      const { promoCode } = await service.checkout.createTestPromoCode();

      // Act
      const reply = await service.checkout.createCheckout({
        email: uniqueEmail('promo'),
        paymentType: 'initial',
        promoCode: promoCode!.toLowerCase(),
      });

      // Assert
      const session = await harness.stripe.checkout.sessions.retrieve(checkoutSessionIdOf(reply.url));
      expect(session.amount_total).toBe(0);
    });

    it.each([
      ['unknown', async () => 'INCONNU-42'],
      [
        'inactive',
        async () => {
          const coupon = await harness.stripe.coupons.create({ percent_off: 50, duration: 'once' });
          const promotion = await harness.stripe.promotionCodes.create({
            promotion: { type: 'coupon', coupon: coupon.id },
            active: false,
          });
          return promotion.code;
        },
      ],
    ])('refuses an %s promotion code as invalid input, with the French message', async (_label, makeCode) => {
      // Arrange
      const promoCode = await makeCode();

      // Act
      const attempt = service.checkout.createCheckout({
        email: uniqueEmail('promo'),
        paymentType: 'initial',
        promoCode,
      });

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
      await expect(attempt).rejects.toMatchObject({
        field: 'promoCode',
        message: MESSAGES.purchase.promoInvalid,
      });
    });

    it('refuses a test code once it has been used 10 times', async () => {
      // Arrange
      const { promoCode } = await service.checkout.createTestPromoCode();
      for (let use = 0; use < TEST_PROMO.maxRedemptions; use++) await boughtLicense(promoCode);

      // Act
      const eleventh = service.checkout.createCheckout({
        email: uniqueEmail('promo'),
        paymentType: 'initial',
        promoCode,
      });

      // Assert
      await expect(eleventh).rejects.toBeInstanceOf(InvalidInputError);
      await expect(eleventh).rejects.toMatchObject({
        field: 'promoCode',
        message: MESSAGES.purchase.promoInvalid,
      });
    });

    it('treats a blank promotion code as none', async () => {
      // Act
      const reply = await service.checkout.createCheckout({
        email: uniqueEmail('blank'),
        paymentType: 'initial',
        promoCode: '  ',
      });

      // Assert
      expect(reply.url).toContain('/checkout/');
    });

    it.each([
      ['without a promotion code', undefined],
      ['with a promotion code', 'TESTABCDEFGH'],
    ])(
      'answers a Stripe failure %s as the provider unavailable, with the French message',
      async (_label, promoCode) => {
        // Act
        const attempt = offline.checkout.createCheckout({
          email: uniqueEmail('panne'),
          paymentType: 'initial',
          ...(promoCode ? { promoCode } : {}),
        });

        // Assert
        await expect(attempt).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
        await expect(attempt).rejects.toMatchObject({ message: MESSAGES.purchase.checkoutFailed });
      },
    );
  });

  describe('createTestPromoCode', () => {
    it('creates a 100 % code usable at most 10 times', async () => {
      // Act
      const reply = await service.checkout.createTestPromoCode();

      // Assert
      expect(reply).toEqual({
        success: true,
        promoCode: expect.stringMatching(/^TEST[A-Z2-9]{8}$/),
        percentOff: 100,
      });
      const found = await harness.payments.findActivePromotionCode(reply.promoCode!);
      expect(found).toMatchObject({ active: true, maxRedemptions: 10, timesRedeemed: 0 });
    });

    it('answers a Stripe failure with the French message', async () => {
      // Act
      const attempt = offline.checkout.createTestPromoCode();

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
      await expect(attempt).rejects.toMatchObject({ message: MESSAGES.promo.createFailed });
    });
  });

  describe('checkSubscription', () => {
    it('says there is no licence when there is none', async () => {
      // Act
      const view = await service.subscriptions.checkSubscription(null);

      // Assert
      expect(view).toEqual({
        hasLicense: false,
        licenseActive: false,
        subscriptionStatus: null,
        licenseKey: null,
        nextPaymentDue: null,
        accessEndsAt: null,
      });
    });

    it('shows the licence with its key, status and next payment due', async () => {
      // Arrange
      const { license } = await boughtLicense();

      // Act
      const view = await service.subscriptions.checkSubscription(license);

      // Assert
      expect(view).toEqual({
        hasLicense: true,
        licenseActive: true,
        subscriptionStatus: 'active',
        licenseKey: vault.decrypt(license.keyCiphertext),
        nextPaymentDue: license.nextPaymentDue,
        accessEndsAt: null,
      });
    });

    it('re-reads the subscription from Stripe, so a missed webhook does not leave it stale', async () => {
      // Arrange
      const { email, license } = await boughtLicense();
      const billing = await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash);
      await harness.standIn.act(billing!.subscriptionId, 'fail-payment');

      // Act
      const view = await service.subscriptions.checkSubscription(license);

      // Assert
      expect(view).toMatchObject({ licenseActive: true, subscriptionStatus: 'past_due' });
      expect((await licenses.findByUserEmail(email, 'lawyer'))?.subscriptionStatus).toBe('past_due');
    });

    it('shows the stored state when Stripe cannot be reached', async () => {
      // Arrange
      const { license } = await boughtLicense();

      // Act
      const view = await offline.subscriptions.checkSubscription(license);

      // Assert
      expect(view).toMatchObject({ hasLicense: true, licenseActive: true, subscriptionStatus: 'active' });
    });

    it('shows a licence issued by hand as it is stored', async () => {
      // Arrange
      const license = await handIssuedLicense();

      // Act
      const view = await service.subscriptions.checkSubscription(license);

      // Assert
      expect(view).toMatchObject({
        hasLicense: true,
        licenseActive: true,
        subscriptionStatus: null,
        nextPaymentDue: null,
      });
    });
  });

  describe('cancelSubscription', () => {
    it('stops the renewal at Stripe and keeps access until the end of the paid month', async () => {
      // Arrange
      const { license } = await boughtLicense();
      const billing = await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash);
      const paidUntil = license.nextPaymentDue;

      // Act
      const reply = await service.subscriptions.cancelSubscription(license);

      // Assert
      expect(reply).toEqual({ success: true });
      const atStripe = await harness.payments.retrieveSubscription(billing!.subscriptionId);
      expect(atStripe).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
      expect(await licenses.getByHash(license.keyHash)).toMatchObject({
        isActive: true,
        subscriptionStatus: 'active',
        nextPaymentDue: null,
        accessEndsAt: paidUntil,
      });
      expect(await service.subscriptions.checkSubscription(license)).toMatchObject({
        licenseActive: true,
        nextPaymentDue: null,
        accessEndsAt: paidUntil,
      });
      // Nothing is purged while the firm still has access.
      expect(
        (await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash))?.purgeAfter,
      ).toBeNull();
    });

    it('e-mails the end-of-access date once, even when the webhook of the change follows', async () => {
      // Arrange
      const { email, license } = await boughtLicense();
      const first = harness.standIn.deliveries.length;

      // Act
      await service.subscriptions.cancelSubscription(license);
      await harness.standIn.idle();
      for (const delivery of harness.standIn.deliveries.slice(first)) await deliver(delivery);

      // Assert
      const confirmations = mailer.to(email).filter((message) => message.subject.includes('résiliation'));
      expect(confirmations).toHaveLength(1);
      const accessUntil = new Intl.DateTimeFormat('fr-FR', {
        dateStyle: 'long',
        timeZone: 'Europe/Paris',
      }).format(new Date(license.nextPaymentDue!));
      expect(confirmations[0]?.text).toContain(`vous gardez l'accès à votre espace jusqu'au ${accessUntil}`);
      expect(confirmations[0]?.text).toContain(`réactivez votre abonnement en un clic`);
      expect(confirmations[0]?.text).not.toContain(vault.decrypt(license.keyCiphertext));
    });

    it('ends the licence when Stripe ends the subscription at the period end, and starts the 30 days then', async () => {
      // Arrange
      const { email, license } = await boughtLicense();
      const billing = await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash);
      await service.subscriptions.cancelSubscription(license);
      await harness.standIn.idle();
      const first = harness.standIn.deliveries.length;

      // Act: the period's end comes; Stripe ends the subscription instead of renewing it.
      await harness.standIn.act(billing!.subscriptionId, 'renew');
      for (const delivery of harness.standIn.deliveries.slice(first)) await deliver(delivery);

      // Assert
      expect(harness.standIn.deliveries.slice(first).map((delivery) => delivery.event.type)).toEqual([
        'customer.subscription.deleted',
      ]);
      expect(await licenses.getByHash(license.keyHash)).toMatchObject({
        isActive: false,
        subscriptionStatus: 'canceled',
        nextPaymentDue: null,
        accessEndsAt: null,
      });
      const subscriptions = new SubscriptionRepository(app.table);
      const purgeAfter = new Date(app.clock.now().getTime() + 30 * DAY_MS);
      expect((await subscriptions.billingOfLicense(license.keyHash))?.purgeAfter).toBe(
        purgeAfter.toISOString(),
      );
      const dueBefore = await subscriptions.purgeDue(new Date(purgeAfter.getTime() - 1));
      const dueAfter = await subscriptions.purgeDue(purgeAfter, 1000);
      expect(dueBefore.map((due) => due.keyHash)).not.toContain(license.keyHash);
      expect(dueAfter.map((due) => due.keyHash)).toContain(license.keyHash);
      const ended = mailer.to(email).filter((message) => message.subject.includes('fin de votre abonnement'));
      expect(ended).toHaveLength(1);
      expect(ended[0]?.text).toContain('Vos données seront conservées 30 jours');
    });

    it('reactivates before the end: the renewal goes on and the licence stays active', async () => {
      // Arrange
      const { license } = await boughtLicense();
      const billing = await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash);
      await service.subscriptions.cancelSubscription(license);

      // Act
      const reply = await service.subscriptions.reactivateSubscription(license);

      // Assert
      expect(reply).toEqual({ success: true });
      expect(await harness.payments.retrieveSubscription(billing!.subscriptionId)).toMatchObject({
        status: 'active',
        cancelAtPeriodEnd: false,
      });
      expect(await licenses.getByHash(license.keyHash)).toMatchObject({
        isActive: true,
        nextPaymentDue: license.nextPaymentDue,
        accessEndsAt: null,
      });
      const first = harness.standIn.deliveries.length;
      await harness.standIn.act(billing!.subscriptionId, 'renew');
      expect(harness.standIn.deliveries.slice(first).map((delivery) => delivery.event.type)).toContain(
        'invoice.paid',
      );
    });

    it('cannot reactivate a subscription that has already ended', async () => {
      // Arrange
      const { license } = await boughtLicense();
      const billing = await new SubscriptionRepository(app.table).billingOfLicense(license.keyHash);
      await harness.standIn.act(billing!.subscriptionId, 'delete');
      await harness.standIn.idle();
      await service.subscriptions.checkSubscription(license);

      // Act
      const attempt = service.subscriptions.reactivateSubscription(license);

      // Assert
      await expect(attempt).rejects.toMatchObject({ message: MESSAGES.subscription.reactivateFailed });
      expect((await licenses.getByHash(license.keyHash))?.isActive).toBe(false);
    });

    it('is refused with the French message for a licence without subscription', async () => {
      // Arrange
      const license = await handIssuedLicense();

      // Act
      const attempt = service.subscriptions.cancelSubscription(license);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
      await expect(attempt).rejects.toMatchObject({ message: MESSAGES.subscription.cancelFailed });
    });

    it('answers a Stripe failure as the provider unavailable and leaves the licence active', async () => {
      // Arrange
      const { license } = await boughtLicense();

      // Act
      const attempt = offline.subscriptions.cancelSubscription(license);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
      await expect(attempt).rejects.toMatchObject({ message: MESSAGES.subscription.cancelFailed });
      expect((await licenses.getByHash(license.keyHash))?.isActive).toBe(true);
    });
  });

  describe('customerPortal', () => {
    it("opens the Stripe customer portal of the licence's customer", async () => {
      // Arrange
      const { license } = await boughtLicense();

      // Act
      const { url } = await service.subscriptions.customerPortal(license);

      // Assert
      expect(url).toMatch(new RegExp(`^${harness.standIn.url}/portal/`));
      expect(await (await fetch(url)).text()).toContain(`${PUBLIC_URL}/lawyer/settings`);
    });

    it('is refused with the French message for a licence without subscription', async () => {
      // Arrange
      const license = await handIssuedLicense();

      // Act
      const attempt = service.subscriptions.customerPortal(license);

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
      await expect(attempt).rejects.toMatchObject({ message: MESSAGES.subscription.customerPortalFailed });
    });
  });

  describe('updateLicenseEmail', () => {
    it('associates the licence of a key with an e-mail', async () => {
      // Arrange
      const { license } = await boughtLicense();
      const newEmail = uniqueEmail('nouvelle');

      // Act
      const reply = await service.subscriptions.updateLicenseEmail(license.keyHash, newEmail);

      // Assert
      expect(reply).toEqual({ success: true });
      expect((await licenses.findByUserEmail(newEmail, 'lawyer'))?.keyHash).toBe(license.keyHash);
    });

    it('refuses an unknown key with the French message', async () => {
      // Act
      const attempt = service.subscriptions.updateLicenseEmail(
        vault.hash('NOTARY-INCONNUE'),
        uniqueEmail('x'),
      );

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
      await expect(attempt).rejects.toMatchObject({ message: MESSAGES.subscription.noLicenseKey });
    });
  });
});
