import { inject } from 'vitest';
import { StripePayments } from '../../functions/adapters/billing/stripe-payments';
import { LicenseRepository } from '../../functions/data/identity/licenses';
import type { Payments } from '../../functions/domain/billing/ports';
import { createStripeWebhookHandler } from '../../functions/handlers/billing/stripe-webhook';
import type { ApiEvent } from '../../functions/http/api-event';
import { type BillingPorts, billingPortsOf } from '../../functions/runtime/billing-ports';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { type BillingServices, billingServicesOf } from '../../functions/runtime/services/billing';
import { createLicenseKeyVault, type LicenseKeyVault } from '../../functions/security/license-key-vault';
import { freePort } from '../../lib/local/free-port';
import type { WebhookDelivery } from '../../lib/local/stripe/stand-in';
import type { CheckoutReply } from '../../shared/schemas/billing';
import { apiEvent, createTestApp, disposeTestApp, invoke, MemoryMailer, type TestApp } from './app';
import { callRoute, signIn } from './directory';
import { checkoutSessionIdOf, PUBLIC_URL, subscriptionOfDelivery } from './payments';
import { uniqueEmail } from './records';
import { type StandInHarness, startHarness } from './stripe';

/**
 * Everything a billing test needs, started once per file: a fresh table in DynamoDB Local, the
 * local Stripe stand-in with the SDK-backed Payments port pointed at it, an e-mail outbox in
 * memory, the billing service over them, and the same ports as `AppDependencies` for the handlers.
 * The stand-in records its webhook events instead of posting them: a test delivers each one
 * where it wants (the service, or the webhook handler), as often and in the order it wants.
 */
export interface BillingTestbed {
  readonly app: TestApp;
  /** The test app with the billing ports, for the handlers. */
  readonly deps: AppDependencies & TestApp;
  readonly harness: StandInHarness;
  readonly vault: LicenseKeyVault;
  readonly mailer: MemoryMailer;
  readonly service: BillingServices;
  readonly licenses: LicenseRepository;
  /** The billing service over another payment provider (an unreachable Stripe, say). */
  serviceWith(payments: Payments): BillingServices;
  stop(): Promise<void>;
}

export async function startBillingTestbed(): Promise<BillingTestbed> {
  const app = await createTestApp(inject('dynamoEndpoint'));
  let harness: StandInHarness;
  try {
    harness = await startHarness();
  } catch (error) {
    await disposeTestApp(app);
    throw error;
  }
  const vault = createLicenseKeyVault(app.keys);
  const mailer = new MemoryMailer();
  const billing: BillingPorts = {
    payments: async () => harness.payments,
    mailer,
    publicUrl: () => PUBLIC_URL,
  };
  const serviceWith = (payments: Payments) =>
    billingServicesOf({
      table: app.table,
      clock: app.clock,
      logger: app.logger,
      vault,
      payments,
      mailer,
      publicUrl: PUBLIC_URL,
    });
  return {
    app,
    deps: { ...app, billing },
    harness,
    vault,
    mailer,
    service: serviceWith(harness.payments),
    licenses: new LicenseRepository(app.table),
    serviceWith,
    stop: async () => {
      await harness.stop();
      await disposeTestApp(app);
    },
  };
}

/** A recorded Stripe delivery as API Gateway hands it to the webhook handler. */
export function webhookEvent(
  delivery: Pick<WebhookDelivery, 'payload' | 'signature'>,
  options: { readonly signature?: string | null; readonly base64?: boolean } = {},
): ApiEvent {
  const signature = options.signature === undefined ? delivery.signature : options.signature;
  const event = apiEvent('POST', '/api/stripe-webhook', {
    rawBody: options.base64 ? Buffer.from(delivery.payload, 'utf8').toString('base64') : delivery.payload,
    headers: signature === null ? {} : { 'stripe-signature': signature },
  });
  return { ...event, isBase64Encoded: options.base64 === true };
}

/** A licence a firm bought, as its holder has it after the e-mail: the key and a session. */
export interface BoughtLicense {
  readonly email: string;
  readonly licenseKey: string;
  readonly token: string;
  readonly subscriptionId: string;
}

/**
 * The end of the paid month comes for a firm that asked to cancel: Stripe ends the subscription
 * instead of renewing it, and its events are posted to the webhook handler.
 */
export async function endOfPaidPeriod(bed: BillingTestbed, bought: BoughtLicense): Promise<void> {
  await bed.harness.standIn.idle();
  const first = bed.harness.standIn.deliveries.length;
  await bed.harness.standIn.act(bought.subscriptionId, 'renew');
  const webhook = createStripeWebhookHandler(bed.deps);
  for (const delivery of bed.harness.standIn.deliveries.slice(first)) {
    const { statusCode } = await invoke(webhook, webhookEvent(delivery));
    if (statusCode !== 200) throw new Error(`Événement ${delivery.event.type} refusé: ${statusCode}`);
  }
}

/**
 * A firm buys a licence end to end through the handlers: create-checkout, payment on the
 * stand-in's hosted page, each recorded Stripe event posted to the webhook handler, the key read
 * from the e-mail, and a sign-in with it.
 */
export async function buyLicense(
  bed: BillingTestbed,
  email = uniqueEmail('cabinet'),
): Promise<BoughtLicense> {
  const checkout = await callRoute<CheckoutReply>(bed.deps, 'createCheckout', {
    body: { email, paymentType: 'initial' },
  });
  if (!checkout.body.url) throw new Error(`Paiement refusé: ${JSON.stringify(checkout.body)}`);
  const first = bed.harness.standIn.deliveries.length;
  await bed.harness.standIn.pay(checkoutSessionIdOf(checkout.body.url));
  const deliveries = bed.harness.standIn.deliveries.slice(first);
  const webhook = createStripeWebhookHandler(bed.deps);
  for (const delivery of deliveries) {
    const { statusCode } = await invoke(webhook, webhookEvent(delivery));
    if (statusCode !== 200) throw new Error(`Événement ${delivery.event.type} refusé: ${statusCode}`);
  }
  const licenseKey = /NOTARY-[A-Z0-9]{8}/.exec(bed.mailer.to(email).at(-1)?.text ?? '')?.[0];
  if (!licenseKey) throw new Error(`Aucune clé de licence envoyée à ${email}`);
  const reply = await signIn(bed.deps, licenseKey);
  if (!reply.token) throw new Error(`Connexion refusée: ${reply.error}`);
  return { email, licenseKey, token: reply.token, subscriptionId: subscriptionOfDelivery(deliveries[0]!)! };
}

/** The same dependencies with a Stripe nobody answers at (a free port, one-second time-out). */
export async function withUnreachableStripe<T extends AppDependencies>(deps: T): Promise<T> {
  const offline = new StripePayments({
    apiKey: 'sk_test_offline',
    host: '127.0.0.1',
    port: await freePort(),
    protocol: 'http',
    timeoutMs: 1_000,
  });
  return { ...deps, billing: { ...billingPortsOf(deps), payments: async () => offline } };
}
