import { inject } from 'vitest';

import { BillingService } from '../../functions/billing/billing-service';
import type { Payments } from '../../functions/billing/payments';
import type { BillingPorts } from '../../functions/billing/ports';
import { LicenseRepository } from '../../functions/data/licenses';
import type { ApiEvent } from '../../functions/http/api-event';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { createLicenseKeyVault, type LicenseKeyVault } from '../../functions/security/license-key-vault';
import type { WebhookDelivery } from '../../lib/local/stripe/stand-in';
import { MemoryMailer, PUBLIC_URL } from '../unit/billing/support/billing';
import { type StandInHarness, startHarness } from '../unit/billing/support/stripe';
import { apiEvent, createTestApp, disposeTestApp, type TestApp } from './app';

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
  readonly service: BillingService;
  readonly licenses: LicenseRepository;
  /** The billing service over another payment provider (an unreachable Stripe, say). */
  serviceWith(payments: Payments): BillingService;
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
    new BillingService({
      table: app.table,
      vault,
      payments,
      mailer,
      clock: app.clock,
      logger: app.logger,
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
