import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StripeEventRepository } from '../../../../functions/data/billing/stripe-events';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { METRIC } from '../../../../functions/domain/core/metrics';
import {
  createStripeWebhookHandler,
  MAX_WEBHOOK_BODY_BYTES,
} from '../../../../functions/handlers/billing/stripe-webhook';
import type { ApiHandler } from '../../../../functions/http/api-event';
import { scopedKey } from '../../../../functions/http/kept-replies';
import type { AppDependencies } from '../../../../functions/runtime/dependencies';
import {
  type SubscriptionAction,
  signWebhookPayload,
  type WebhookDelivery,
} from '../../../../lib/local/stripe/stand-in';
import { SIGN_IN_THROTTLE, TEST_PROMO } from '../../../../shared/constants';
import { IDEMPOTENCY_MESSAGES } from '../../../../shared/idempotency-messages';
import { MESSAGES } from '../../../../shared/messages';
import { ROUTES, type RouteName } from '../../../../shared/routes';
import type {
  CheckoutReply,
  PortalLinkReply,
  PortalReply,
  PromoCodeReply,
  SubscriptionView,
} from '../../../../shared/schemas/billing';
import type { LawyerSaveReply } from '../../../../shared/schemas/directory';
import type { TestApp } from '../../../support/app';
import { invoke } from '../../../support/app';
import {
  type BillingTestbed,
  startBillingTestbed,
  webhookEvent,
  withUnreachableStripe,
} from '../../../support/billing';
import {
  type CallOptions,
  callRoute,
  issueAndSignIn,
  lawyerFields,
  type SignedIn,
  signIn,
  workflowFields,
} from '../../../support/directory';
import { checkoutSessionIdOf, PUBLIC_URL, subscriptionOfDelivery } from '../../../support/payments';
import { scanTable, uniqueEmail } from '../../../support/records';

/** Every route of the route table that requires a session. */
const PROTECTED_ROUTES = (Object.keys(ROUTES) as RouteName[]).filter(
  (name) => ROUTES[name].access !== 'public',
);

const KEY_SUBJECT = 'Assistant IA juridique : votre clé de licence';
const CANCELLATION_SUBJECT = 'Assistant IA juridique : confirmation de résiliation de votre abonnement';
const ENDED_SUBJECT = 'Assistant IA juridique : fin de votre abonnement';

describe('billing routes through their handlers', () => {
  let bed: BillingTestbed;
  let app: TestApp & AppDependencies;
  let webhook: ApiHandler;
  let admin: SignedIn;

  beforeAll(async () => {
    bed = await startBillingTestbed();
    app = bed.deps;
    webhook = createStripeWebhookHandler(app);
    admin = await issueAndSignIn(app, 'admin');
  });

  afterAll(() => bed.stop());

  const call = <T = Record<string, unknown>>(name: RouteName, options: CallOptions = {}) =>
    callRoute<T>(app, name, options);

  /** Posts a recorded Stripe delivery to the webhook handler, as API Gateway would. */
  const post = (delivery: Pick<WebhookDelivery, 'payload' | 'signature'>, options = {}) =>
    invoke<Record<string, unknown>>(webhook, webhookEvent(delivery, options));

  /** The deliveries the stand-in records while `act` runs. */
  async function recorded(act: () => Promise<unknown>): Promise<WebhookDelivery[]> {
    const first = bed.harness.standIn.deliveries.length;
    await act();
    return bed.harness.standIn.deliveries.slice(first);
  }

  /** Posts each delivery to the webhook handler in order and expects each to be accepted. */
  async function deliver(deliveries: readonly WebhookDelivery[]): Promise<void> {
    for (const delivery of deliveries) {
      const { statusCode, body } = await post(delivery);
      expect({ type: delivery.event.type, statusCode, body }).toMatchObject({
        statusCode: 200,
        body: { received: true },
      });
    }
  }

  /** A firm buys a licence through create-checkout and the hosted page; the webhook issues it. */
  async function purchase(promoCode?: string) {
    const email = uniqueEmail('cabinet');
    const { statusCode, body } = await call<CheckoutReply>('createCheckout', {
      body: { email, paymentType: 'initial', ...(promoCode ? { promoCode } : {}) },
    });
    expect(statusCode).toBe(200);
    const deliveries = await recorded(() => bed.harness.standIn.pay(checkoutSessionIdOf(body.url!)));
    const subscriptionId = subscriptionOfDelivery(deliveries[0]!)!;
    return { email, deliveries, subscriptionId };
  }

  /** A bought licence, its key (from the e-mail) and a session of its holder. */
  async function subscriber() {
    const bought = await purchase();
    await deliver(bought.deliveries);
    const [message] = bed.mailer.to(bought.email);
    const licenseKey = /NOTARY-[A-Z0-9]{8}/.exec(message!.text)![0];
    const reply = await signIn(app, licenseKey);
    if (!reply.token) throw new Error(`Connexion refusée: ${reply.error}`);
    return { ...bought, licenseKey, token: reply.token };
  }

  const subscription = (token: string, body: Record<string, unknown> = {}) =>
    call<SubscriptionView>('checkSubscription', { token, body });

  describe('POST /api/create-checkout', () => {
    it('answers the hosted checkout URL, back to the site after payment', async () => {
      // Act
      const { statusCode, body } = await call<CheckoutReply>('createCheckout', {
        body: { email: uniqueEmail('achat'), paymentType: 'initial' },
      });

      // Assert
      expect(statusCode).toBe(200);
      expect(body.url).toMatch(new RegExp(`^${bed.harness.standIn.url}/checkout/cs_test_`));
      const session = await bed.harness.stripe.checkout.sessions.retrieve(checkoutSessionIdOf(body.url!));
      expect(session.success_url).toBe(`${PUBLIC_URL}/payment-success?session_id={CHECKOUT_SESSION_ID}`);
    });

    it.each([
      ['a bad e-mail', { email: 'pas-une-adresse', paymentType: 'initial' }, MESSAGES.purchase.emailInvalid],
      [
        'an unknown promo code',
        { email: 'a@b.fr', paymentType: 'initial', promoCode: 'INCONNU' },
        MESSAGES.purchase.promoInvalid,
      ],
    ])('refuses %s with a 400 and the French message', async (_label, body, message) => {
      // Act
      const reply = await call('createCheckout', { body });

      // Assert
      expect(reply).toMatchObject({ statusCode: 400, body: { error: message } });
    });

    it('answers a Stripe failure with a 4xx and the spec message, never a 5xx', async () => {
      // Arrange
      const offlineApp = await withUnreachableStripe(app);

      // Act
      const reply = await callRoute(offlineApp, 'createCheckout', {
        body: { email: uniqueEmail('panne'), paymentType: 'initial' },
      });

      // Assert
      expect(reply).toMatchObject({ statusCode: 424, body: { error: MESSAGES.purchase.checkoutFailed } });
    });
  });

  describe('POST /api/create-promo-code', () => {
    it('gives an admin a 100 % code', async () => {
      // Act
      const { statusCode, body } = await call<PromoCodeReply>('createPromoCode', { token: admin.token });

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toMatchObject({
        success: true,
        percentOff: 100,
        promoCode: expect.stringMatching(/^TEST/),
      });
    });

    it('answers a retry with the same Idempotency-Key with the same code, created once at Stripe', async () => {
      // Arrange
      const headers = { 'idempotency-key': randomUUID() };
      const first = await call<PromoCodeReply>('createPromoCode', { token: admin.token, headers });

      // Act
      const retry = await call<PromoCodeReply>('createPromoCode', { token: admin.token, headers });
      const another = await call<PromoCodeReply>('createPromoCode', {
        token: admin.token,
        headers: { 'idempotency-key': randomUUID() },
      });

      // Assert
      expect(retry).toMatchObject({ statusCode: 200, body: first.body });
      expect(another.body.promoCode).not.toBe(first.body.promoCode);
      const { data } = await bed.harness.stripe.promotionCodes.list({ code: first.body.promoCode! });
      expect(data).toHaveLength(1);
    });

    it('refuses with a 422 in French a key Stripe first saw with other parameters', async () => {
      // Arrange: the key's first step already sent to Stripe with another discount.
      const header = randomUUID();
      const sentKey = scopedKey(admin.keyHash, ROUTES.createPromoCode, header);
      await bed.harness.stripe.coupons.create(
        { percent_off: 50, duration: 'once' },
        { idempotencyKey: `${sentKey}-coupon` },
      );

      // Act
      const reply = await call('createPromoCode', {
        token: admin.token,
        headers: { 'idempotency-key': header },
      });

      // Assert
      expect(reply).toMatchObject({ statusCode: 422, body: { error: IDEMPOTENCY_MESSAGES.keyReused } });
    });

    it('refuses a lawyer', async () => {
      // Arrange
      const lawyer = await issueAndSignIn(app, 'lawyer');

      // Act
      const reply = await call('createPromoCode', { token: lawyer.token });

      // Assert
      expect(reply).toMatchObject({ statusCode: 403, body: { error: MESSAGES.session.forbidden } });
    });

    it('makes a code that pays the licence 10 times, and refuses the 11th checkout', async () => {
      // Arrange
      const { body } = await call<PromoCodeReply>('createPromoCode', { token: admin.token });
      const promoCode = body.promoCode!;
      for (let use = 0; use < TEST_PROMO.maxRedemptions; use++) {
        const bought = await purchase(promoCode);
        await deliver(bought.deliveries);
        expect(bed.mailer.to(bought.email).map((message) => message.subject)).toEqual([KEY_SUBJECT]);
      }

      // Act
      const eleventh = await call('createCheckout', {
        body: { email: uniqueEmail('onzieme'), paymentType: 'initial', promoCode },
      });

      // Assert
      expect(eleventh).toMatchObject({ statusCode: 400, body: { error: MESSAGES.purchase.promoInvalid } });
    });

    it("sends a 0 € purchase's key saying nothing was charged, never 'Votre paiement … a bien été reçu'", async () => {
      // Arrange
      const { body } = await call<PromoCodeReply>('createPromoCode', { token: admin.token });

      // Act
      const bought = await purchase(body.promoCode!);
      await deliver(bought.deliveries);

      // Assert: the amount the stand-in's checkout really charged (0) reached the e-mail.
      const [message] = bed.mailer.to(bought.email);
      expect(message?.text).toContain("rien n'a été prélevé aujourd'hui");
      expect(message?.text).not.toMatch(/paiement .*a bien été reçu/);
    });
  });

  describe('POST /api/stripe-webhook', () => {
    /** A checkout paid at the stand-in whose events have not been delivered yet. */
    const undelivered = async () => (await purchase()).deliveries[0]!;

    const now = () => Math.floor(Date.now() / 1000);

    it('applies a validly signed event and issues the licence', async () => {
      // Arrange
      const bought = await purchase();

      // Act
      const { statusCode, body } = await post(bought.deliveries[0]!);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ received: true, outcome: 'applied' });
      expect(bed.mailer.to(bought.email)).toHaveLength(1);
    });

    it('accepts a body API Gateway passes base64-encoded', async () => {
      // Arrange
      const delivery = await undelivered();

      // Act
      const { statusCode, body } = await post(delivery, { base64: true });

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ received: true, outcome: 'applied' });
    });

    it('answers a replay as a duplicate', async () => {
      // Arrange
      const delivery = await undelivered();
      await post(delivery);

      // Act
      const { statusCode, body } = await post(delivery);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ received: true, outcome: 'duplicate' });
    });

    it.each([
      [
        'a tampered body',
        (delivery: WebhookDelivery) => ({
          payload: delivery.payload.replace('"livemode": false', '"livemode": true'),
          signature: delivery.signature,
        }),
      ],
      [
        'a signature under another secret',
        (delivery: WebhookDelivery) => ({
          payload: delivery.payload,
          signature: signWebhookPayload(delivery.payload, 'whsec_un_autre_secret', now()),
        }),
      ],
      [
        'a stale timestamp',
        (delivery: WebhookDelivery) => ({
          payload: delivery.payload,
          signature: signWebhookPayload(delivery.payload, bed.harness.webhookSecret, now() - 10 * 60),
        }),
      ],
      [
        'a malformed header',
        (delivery: WebhookDelivery) => ({ payload: delivery.payload, signature: 'pas-une-signature' }),
      ],
    ])('refuses %s with a 400 and writes nothing', async (_label, alter) => {
      // Arrange
      const altered = alter(await undelivered());
      const before = await scanTable(app.table);
      const rejected = app.metrics.countOf(METRIC.stripeWebhookRejected);

      // Act
      const { statusCode, body } = await post(altered);

      // Assert: refused, nothing written, counted for the StripeWebhookRejected alarm.
      expect(statusCode).toBe(400);
      expect(body.error).toEqual(expect.any(String));
      expect(await scanTable(app.table)).toEqual(before);
      expect(app.metrics.countOf(METRIC.stripeWebhookRejected)).toBe(rejected + 1);
    });

    it('refuses a delivery without a Stripe-Signature header with a 400 and writes nothing', async () => {
      // Arrange
      const delivery = await undelivered();
      const before = await scanTable(app.table);

      // Act
      const { statusCode } = await post(delivery, { signature: null });

      // Assert
      expect(statusCode).toBe(400);
      expect(await scanTable(app.table)).toEqual(before);
    });

    it('answers 409 while another delivery of the same event is being applied, so Stripe retries', async () => {
      // Arrange
      const delivery = await undelivered();
      await new StripeEventRepository(app.table).claim(
        { id: delivery.event.id, type: delivery.event.type },
        'another-delivery',
        app.clock.now(),
        60_000,
      );

      // Act
      const { statusCode, body } = await post(delivery);

      // Assert
      expect(statusCode).toBe(409);
      expect(body).toEqual({ error: MESSAGES.subscription.webhookBusy });
    });

    it.each([
      ['as sent', false],
      ['base64-encoded by API Gateway', true],
    ])('refuses a body larger than the limit, %s, with a 413 before verifying it', async (_label, base64) => {
      // Arrange: a signed body one byte over the limit, so that only its size can refuse it.
      const payload = JSON.stringify({ id: 'evt_big', pad: '' }).replace(
        '""',
        `"${'x'.repeat(MAX_WEBHOOK_BODY_BYTES)}"`,
      );
      const signature = signWebhookPayload(payload, bed.harness.webhookSecret, now());
      const before = await scanTable(app.table);

      // Act
      const { statusCode, body } = await invoke<Record<string, unknown>>(
        webhook,
        webhookEvent({ payload, signature }, { base64 }),
      );

      // Assert
      expect(statusCode).toBe(413);
      expect(body).toEqual({ error: MESSAGES.request.tooLarge });
      expect(await scanTable(app.table)).toEqual(before);
    });

    it('answers 404 to a route it does not serve', async () => {
      // Arrange
      const delivery = await undelivered();
      const elsewhere = { ...webhookEvent(delivery), routeKey: 'POST /api/autre-chose' };

      // Act
      const { statusCode, body } = await invoke<Record<string, unknown>>(webhook, elsewhere);

      // Assert
      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.request.notFound });
    });

    it('answers 200 to an event type the product does not listen to', async () => {
      // Arrange
      const payload = JSON.stringify({
        id: 'evt_customer_created',
        object: 'event',
        type: 'customer.created',
        data: { object: { id: 'cus_1', object: 'customer' } },
      });

      // Act
      const { statusCode, body } = await post({
        payload,
        signature: signWebhookPayload(payload, bed.harness.webhookSecret, now()),
      });

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ received: true, outcome: 'ignored' });
    });
  });

  describe('signed events that change nothing or cannot be read (issue 14 §7)', () => {
    const now = () => Math.floor(Date.now() / 1000);
    /** Posts a body signed with the right secret. */
    const postSigned = (payload: string) =>
      post({ payload, signature: signWebhookPayload(payload, bed.harness.webhookSecret, now()) });

    it.each([
      ['without data.object', { id: 'evt_no_object', object: 'event', type: 'invoice.paid', data: {} }],
      ['without data', { id: 'evt_no_data', object: 'event', type: 'invoice.paid' }],
      [
        'with data.object null',
        { id: 'evt_null', object: 'event', type: 'invoice.paid', data: { object: null } },
      ],
      ['without an id', { object: 'event', type: 'invoice.paid', data: { object: { object: 'invoice' } } }],
      ['an array', [1, 2, 3]],
    ])(
      'acknowledges a signed event %s as ignored, never a 500, and writes nothing',
      async (_label, event) => {
        const before = await scanTable(app.table);

        const { statusCode, body } = await postSigned(JSON.stringify(event));

        expect(statusCode).toBe(200);
        expect(body).toEqual({ received: true, outcome: 'ignored' });
        expect(await scanTable(app.table)).toEqual(before);
      },
    );

    it('acknowledges a signed body that is not JSON as ignored, not as a signature failure', async () => {
      const { statusCode, body } = await postSigned('ceci n’est pas du JSON');

      expect(statusCode).toBe(200);
      expect(body).toEqual({ received: true, outcome: 'ignored' });
      expect(app.logger.lines.some((line) => line.includes('Webhook Stripe illisible ignoré'))).toBe(true);
    });

    it.each([
      [
        'an unknown checkout session',
        'checkout.session.completed',
        { object: 'checkout.session', id: 'cs_inconnue' },
      ],
      [
        'an unknown subscription',
        'customer.subscription.updated',
        { object: 'subscription', id: 'sub_inconnu' },
      ],
      [
        'an invoice of an unknown subscription',
        'invoice.paid',
        { object: 'invoice', id: 'in_1', subscription: 'sub_inconnu' },
      ],
      [
        'a checkout session whose ids are not strings',
        'checkout.session.completed',
        { object: 'checkout.session', id: 42, subscription: { id: 7 } },
      ],
    ])('answers an event about %s as ignored', async (_label, type, object) => {
      const payload = JSON.stringify({
        id: `evt_${crypto.randomUUID()}`,
        object: 'event',
        type,
        data: { object },
      });

      const { statusCode, body } = await postSigned(payload);

      expect(statusCode).toBe(200);
      expect(body).toEqual({ received: true, outcome: 'ignored' });
    });
  });

  describe('POST /api/request-portal-link (a firm that cannot sign in)', () => {
    const PORTAL_SUBJECT = 'Assistant IA juridique : gérer votre abonnement';

    it("e-mails a customer-portal link to a licence's address, even once cancelled", async () => {
      // Arrange: a firm that bought a licence, then cancelled: it can no longer sign in.
      const { email, token } = await subscriber();
      expect((await call('cancelSubscription', { token, body: {} })).statusCode).toBe(200);

      // Act
      const { statusCode, body } = await call<PortalLinkReply>('requestPortalLink', { body: { email } });
      await app.portalLinks.deliver(app);

      // Assert
      expect(statusCode).toBe(200);
      expect(body.message).toBe(MESSAGES.subscription.portalLinkSent);
      const sent = bed.mailer.to(email).filter((message) => message.subject === PORTAL_SUBJECT);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.text).toMatch(new RegExp(`${bed.harness.standIn.url}/portal/\\S+`));
    });

    it('gives the same reply for an unknown e-mail, and sends nothing', async () => {
      // Arrange
      const email = uniqueEmail('inconnu');

      // Act
      const { statusCode, body } = await call<PortalLinkReply>('requestPortalLink', { body: { email } });
      await app.portalLinks.deliver(app);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ message: MESSAGES.subscription.portalLinkSent });
      expect(bed.mailer.to(email)).toEqual([]);
    });

    it("refuses a client past the throttle's lock with 429 and 'Trop de tentatives', sending nothing more", async () => {
      // Arrange: one client asks for the links of the lock's worth of addresses (a probe of who is a customer).
      const sourceIp = '192.0.2.77';
      const { email } = await subscriber();
      for (let attempt = 0; attempt < SIGN_IN_THROTTLE.lockAfter; attempt++) {
        const probe = await call('requestPortalLink', { body: { email: uniqueEmail('sonde') }, sourceIp });
        expect(probe.statusCode).toBe(200);
      }

      // Act
      const refused = await call('requestPortalLink', { body: { email }, sourceIp });
      const elsewhere = await call('requestPortalLink', { body: { email }, sourceIp: '192.0.2.78' });
      await app.portalLinks.deliver(app);

      // Assert: the form shows the reply's `error`; another client is not held back.
      expect(refused).toMatchObject({ statusCode: 429, body: { error: MESSAGES.login.tooManyAttempts } });
      expect(elsewhere.statusCode).toBe(200);
      expect(bed.mailer.to(email).filter((message) => message.subject === PORTAL_SUBJECT)).toHaveLength(1);
    });

    it("keeps the buyer's address for the link and the cancellation e-mail once the licence is associated with the Google address", async () => {
      // Arrange: the firm's lawyer configures his account with the firm's dedicated Google address,
      // then 'Associer la licence à mon e-mail'.
      const { email: buyer, token, licenseKey } = await subscriber();
      const google = uniqueEmail('cabinet-google');
      expect((await call('saveProfile', { token, body: lawyerFields({ email: google }) })).statusCode).toBe(
        200,
      );
      expect((await call('updateLicenseEmail', { token, body: { licenseKey } })).statusCode).toBe(200);
      const licenses = new LicenseRepository(app.table);
      expect((await licenses.findByUserEmail(google, 'lawyer'))?.userEmail).toBe(google);

      // Act
      await call('requestPortalLink', { body: { email: google }, sourceIp: '192.0.2.90' });
      await call('requestPortalLink', { body: { email: buyer }, sourceIp: '192.0.2.90' });
      await app.portalLinks.deliver(app);
      expect((await call('cancelSubscription', { token, body: {} })).statusCode).toBe(200);

      // Assert: everything billing-related goes to the buyer, nothing to the Google mailbox.
      const subjects = (to: string) => bed.mailer.to(to).map((message) => message.subject);
      expect(subjects(google)).toEqual([]);
      expect(subjects(buyer)).toEqual(expect.arrayContaining([PORTAL_SUBJECT, CANCELLATION_SUBJECT]));
    });

    it('answers before anything is looked up: the same work before the reply whatever the e-mail', async () => {
      // Arrange: a subscriber's address and an unknown one; every table call recorded by kind.
      const { email: known } = await subscriber();
      const unknown = uniqueEmail('inconnu');
      const workBeforeReply = async (email: string, sourceIp: string) => {
        const calls: string[] = [];
        const send = app.table.doc.send.bind(app.table.doc);
        const spy = vi.spyOn(app.table.doc, 'send').mockImplementation(((
          command: object,
          ...rest: never[]
        ) => {
          calls.push(command.constructor.name);
          return send(command as never, ...rest);
        }) as never);
        const portal = vi.spyOn(bed.harness.payments, 'createPortalSession');
        const reply = await call<PortalLinkReply>('requestPortalLink', { body: { email }, sourceIp });
        const stripeCalled = portal.mock.calls.length > 0;
        spy.mockRestore();
        portal.mockRestore();
        return { reply, calls, stripeCalled };
      };

      // Act
      const forKnown = await workBeforeReply(known, '192.0.2.95');
      const forUnknown = await workBeforeReply(unknown, '192.0.2.96');

      // Assert: the client's request counted, nothing read about the e-mail, nothing sent yet.
      expect(forKnown.reply).toEqual(forUnknown.reply);
      expect(new Set(forKnown.calls)).toEqual(new Set(['UpdateCommand']));
      expect(forUnknown.calls).toEqual(forKnown.calls);
      expect(forKnown.stripeCalled).toBe(false);
      expect(bed.mailer.to(known).filter((message) => message.subject === PORTAL_SUBJECT)).toEqual([]);
      expect(app.portalLinks.requested).toEqual([known, unknown]);
      // After the reply, the sender does the rest.
      await app.portalLinks.deliver(app);
      expect(bed.mailer.to(known).filter((message) => message.subject === PORTAL_SUBJECT)).toHaveLength(1);
    });

    it('sends one address no more than 3 portal e-mails an hour, whoever asks', async () => {
      // Arrange
      const { email } = await subscriber();
      const portalEmails = () => bed.mailer.to(email).filter((message) => message.subject === PORTAL_SUBJECT);

      // Act: five asks from five clients, then one an hour later.
      for (let client = 0; client < 5; client++) {
        expect(
          (await call('requestPortalLink', { body: { email }, sourceIp: `192.0.2.${120 + client}` }))
            .statusCode,
        ).toBe(200);
      }
      await app.portalLinks.deliver(app);
      const withinTheHour = portalEmails().length;
      app.clock.advance(60 * 60 * 1000 + 1000);
      await call('requestPortalLink', { body: { email }, sourceIp: '192.0.2.130' });
      await app.portalLinks.deliver(app);

      // Assert
      expect(withinTheHour).toBe(3);
      expect(portalEmails()).toHaveLength(4);
    });

    it('names the field of a malformed e-mail', async () => {
      const { statusCode, body } = await call('requestPortalLink', { body: { email: 'pas-une-adresse' } });

      expect(statusCode).toBe(400);
      expect(JSON.stringify(body)).toContain(MESSAGES.purchase.emailInvalid);
    });
  });

  describe('subscription management', () => {
    it('shows the subscriber his subscription', async () => {
      // Arrange
      const { token, licenseKey } = await subscriber();

      // Act
      const { statusCode, body } = await subscription(token);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toMatchObject({
        hasLicense: true,
        licenseActive: true,
        subscriptionStatus: 'active',
        licenseKey,
        nextPaymentDue: expect.any(String),
      });
    });

    it("accepts the caller's own licence key in the request", async () => {
      // Arrange
      const { token, licenseKey } = await subscriber();

      // Act
      const { statusCode, body } = await subscription(token, { licenseKey });

      // Assert
      expect(statusCode).toBe(200);
      expect(body.licenseKey).toBe(licenseKey);
    });

    it('opens the customer portal of his subscription', async () => {
      // Arrange
      const { token } = await subscriber();

      // Act
      const { statusCode, body } = await call<PortalReply>('customerPortal', { token, body: {} });

      // Assert
      expect(statusCode).toBe(200);
      expect(body.url).toMatch(new RegExp(`^${bed.harness.standIn.url}/portal/`));
    });

    it("associates the licence with the holder's e-mail", async () => {
      // Arrange
      const { token, licenseKey } = await subscriber();

      // Act
      const reply = await call('updateLicenseEmail', { token, body: { licenseKey } });

      // Assert
      expect(reply).toMatchObject({ statusCode: 200, body: { success: true } });
    });

    it.each(['checkSubscription', 'customerPortal', 'cancelSubscription', 'updateLicenseEmail'] as const)(
      "refuses %s with another firm's licence key (403) and changes nothing",
      async (name) => {
        // Arrange
        const victim = await subscriber();
        const intruder = await subscriber();
        const before = await scanTable(app.table);

        // Act
        const reply = await call(name, { token: intruder.token, body: { licenseKey: victim.licenseKey } });

        // Assert
        expect(reply).toMatchObject({ statusCode: 403, body: { error: MESSAGES.session.forbidden } });
        expect(await scanTable(app.table)).toEqual(before);
        expect((await subscription(victim.token)).body.licenseActive).toBe(true);
      },
    );

    it.each(['checkSubscription', 'customerPortal', 'cancelSubscription'] as const)(
      'refuses %s to an admin (403) and without a session (401)',
      async (name) => {
        // Act
        const asAdmin = await call(name, { token: admin.token, body: {} });
        const anonymous = await call(name, { body: {} });

        // Assert
        expect(asAdmin.statusCode).toBe(403);
        expect(anonymous.statusCode).toBe(401);
      },
    );

    it('stops the renewal: access kept until the end of the paid month, the date e-mailed, then refused', async () => {
      // Arrange
      const { token, email, licenseKey, subscriptionId } = await subscriber();

      // Act
      const reply = await call('cancelSubscription', { token, body: { licenseKey } });

      // Assert: nothing changes for the firm until the end of the month it paid for.
      expect(reply).toMatchObject({ statusCode: 200, body: { success: true } });
      expect(bed.mailer.to(email).map((message) => message.subject)).toEqual([
        KEY_SUBJECT,
        CANCELLATION_SUBJECT,
      ]);
      expect((await call('listWorkflows', { token })).statusCode).toBe(200);
      const view = await subscription(token);
      expect(view.body).toMatchObject({ licenseActive: true, nextPaymentDue: null });
      expect(view.body.accessEndsAt).toEqual(expect.any(String));

      // Then the period ends.
      await deliver(await recorded(() => bed.harness.standIn.act(subscriptionId, 'renew')));
      expect(bed.mailer.to(email).map((message) => message.subject)).toEqual([
        KEY_SUBJECT,
        CANCELLATION_SUBJECT,
        ENDED_SUBJECT,
      ]);
      expect(await call('listWorkflows', { token })).toMatchObject({
        statusCode: 401,
        body: { error: MESSAGES.session.licenseInactive },
      });
      expect(await signIn(app, licenseKey)).toEqual({
        valid: false,
        error: MESSAGES.session.licenseInactive,
      });
    });

    it('reactivates a scheduled cancellation in one call, before the end of the paid month', async () => {
      // Arrange
      const { token, licenseKey } = await subscriber();
      await call('cancelSubscription', { token, body: { licenseKey } });

      // Act
      const reply = await call('reactivateSubscription', { token, body: {} });

      // Assert
      expect(reply).toMatchObject({ statusCode: 200, body: { success: true } });
      const view = await subscription(token);
      expect(view.body).toMatchObject({ licenseActive: true, accessEndsAt: null });
      expect(view.body.nextPaymentDue).toEqual(expect.any(String));
    });

    it('answers a licence without a subscription with a 404 and the French message', async () => {
      // Arrange
      const handIssued = await issueAndSignIn(app, 'lawyer');

      // Act
      const reply = await call('cancelSubscription', { token: handIssued.token, body: {} });

      // Assert
      expect(reply).toMatchObject({ statusCode: 404, body: { error: MESSAGES.subscription.cancelFailed } });
    });
  });

  describe("an admin's deletion of a lawyer", () => {
    /** A bought licence given to a lawyer profile by the admin. */
    async function lawyerOfSubscriber() {
      const holder = await subscriber();
      const saved = await call<LawyerSaveReply>('saveLawyer', {
        token: admin.token,
        body: lawyerFields({ email: holder.email, licenseKey: holder.licenseKey, googlePassword: 'secret' }),
      });
      expect(saved.statusCode).toBe(201);
      const workflow = await call<{ id: string }>('createWorkflow', {
        token: admin.token,
        body: workflowFields(holder.email),
      });
      expect(workflow.statusCode).toBe(201);
      return { ...holder, lawyerId: saved.body.lawyer.id, workflowId: workflow.body.id };
    }

    it('ends his subscription at Stripe first, so the firm is no longer charged', async () => {
      // Arrange
      const lawyer = await lawyerOfSubscriber();

      // Act
      const reply = await call('deleteLawyer', { token: admin.token, params: { id: lawyer.lawyerId } });

      // Assert
      expect(reply.statusCode).toBe(200);
      expect(await bed.harness.payments.retrieveSubscription(lawyer.subscriptionId)).toMatchObject({
        status: 'canceled',
      });
      expect(bed.mailer.to(lawyer.email).map((message) => message.subject)).toEqual([
        KEY_SUBJECT,
        ENDED_SUBJECT,
      ]);
      expect(await signIn(app, lawyer.licenseKey)).toMatchObject({ valid: false });
    });

    it('deletes nothing when Stripe cannot be reached, and says so in French', async () => {
      // Arrange
      const lawyer = await lawyerOfSubscriber();
      const offlineApp = await withUnreachableStripe(app);

      // Act
      const reply = await callRoute(offlineApp, 'deleteLawyer', {
        token: admin.token,
        params: { id: lawyer.lawyerId },
      });

      // Assert
      expect(reply).toMatchObject({ statusCode: 424, body: { error: MESSAGES.subscription.cancelFailed } });
      expect(await call('getLawyer', { token: admin.token, params: { id: lawyer.lawyerId } })).toMatchObject({
        statusCode: 200,
      });
      expect(
        await call('getWorkflow', { token: admin.token, params: { id: lawyer.workflowId } }),
      ).toMatchObject({ statusCode: 200 });
      expect(await app.lawyerSecrets.get(lawyer.lawyerId)).toMatchObject({ googlePassword: 'secret' });
      expect(await signIn(app, lawyer.licenseKey)).toMatchObject({ valid: true });
    });
  });

  describe('the licence lifecycle, as sign-in and the protected routes see it', () => {
    /** What a step of the subscription's life should leave. */
    interface Step {
      readonly action: SubscriptionAction;
      readonly status: string;
      readonly access: boolean;
    }

    const STEPS: readonly Step[] = [
      { action: 'fail-payment', status: 'past_due', access: true },
      { action: 'renew', status: 'active', access: true },
      { action: 'fail-payment', status: 'past_due', access: true },
      { action: 'mark-unpaid', status: 'unpaid', access: false },
      { action: 'delete', status: 'canceled', access: false },
    ];

    it('follows each transition at once: past due keeps access, unpaid and deleted refuse it', async () => {
      // Arrange
      const holder = await subscriber();
      let token = holder.token;

      for (const step of STEPS) {
        // Act
        await deliver(await recorded(() => bed.harness.standIn.act(holder.subscriptionId, step.action)));

        // Assert
        const reply = await signIn(app, holder.licenseKey);
        const workflows = await call('listWorkflows', { token });
        const profile = await call('getProfile', { token });
        if (step.access) {
          expect({ step: step.action, valid: reply.valid }).toEqual({ step: step.action, valid: true });
          token = reply.token!;
          expect(workflows.statusCode).toBe(200);
          expect(profile.statusCode).not.toBe(401);
          const view = await subscription(token);
          expect(view.body).toMatchObject({ licenseActive: true, subscriptionStatus: step.status });
        } else {
          expect(reply).toEqual({ valid: false, error: MESSAGES.session.licenseInactive });
          expect(workflows).toMatchObject({
            statusCode: 401,
            body: { error: MESSAGES.session.licenseInactive },
          });
          expect(profile).toMatchObject({
            statusCode: 401,
            body: { error: MESSAGES.session.licenseInactive },
          });
          // Every protected route refuses the session, whatever the request names or carries.
          for (const name of PROTECTED_ROUTES) {
            const refused = await call(name, { token, params: { id: randomUUID() }, body: {} });
            expect({ name, ...refused }).toMatchObject({
              name,
              statusCode: 401,
              body: { error: MESSAGES.session.licenseInactive },
            });
          }
          const licence = await bed.licenses.getByHash(bed.vault.hash(holder.licenseKey));
          expect(licence).toMatchObject({ isActive: false, subscriptionStatus: step.status });
        }
      }
      expect(bed.mailer.to(holder.email).map((message) => message.subject)).toEqual([
        KEY_SUBJECT,
        ENDED_SUBJECT,
      ]);
    });

    it('shows the missed debit as the payment due while past due', async () => {
      // Arrange
      const holder = await subscriber();
      await deliver(await recorded(() => bed.harness.standIn.act(holder.subscriptionId, 'fail-payment')));

      // Act
      const { body } = await subscription(holder.token);

      // Assert
      const missed = (await bed.harness.payments.retrieveSubscription(holder.subscriptionId))!;
      expect(body.subscriptionStatus).toBe('past_due');
      expect(body.nextPaymentDue).toBe(missed.currentPeriodStart!.toISOString());
    });
  });
});
