import { StripeEventRepository } from '../../data/billing/stripe-events';
import { SubscriptionRepository } from '../../data/billing/subscriptions';
import { LawyerRepository } from '../../data/directory/lawyers';
import { LicenseRepository } from '../../data/identity/licenses';
import { SignInAttemptRepository } from '../../data/identity/sign-in-attempts';
import type { Table } from '../../data/table/table';
import { CheckoutService } from '../../domain/billing/checkout';
import { LicenseEmailResend } from '../../domain/billing/license-email';
import { PaymentEventService } from '../../domain/billing/payment-events';
import { PortalLinkSender, PortalLinkService } from '../../domain/billing/portal-link';
import type { Payments } from '../../domain/billing/ports';
import { DataRetention } from '../../domain/billing/retention';
import { SubscriptionSync } from '../../domain/billing/subscription-sync';
import { SubscriptionService } from '../../domain/billing/subscriptions';
import { UndeliveredMail } from '../../domain/billing/undelivered-mail';
import type { Clock, Logger, Mailer } from '../../domain/core/ports';
import type { LawyerService } from '../../domain/directory/lawyers';
import { createLicenseKeyVault, type LicenseKeyVault } from '../../security/license-key-vault';
import { billingPortsOf } from '../billing-ports';
import type { AppDependencies } from '../dependencies';
import { auditTrailOf } from './directory';

/* The billing services of a world, over its table and its billing ports. */

/** The billing services: buying, Stripe's events, a member's subscription. */
export interface BillingServices {
  readonly checkout: CheckoutService;
  readonly paymentEvents: PaymentEventService;
  readonly subscriptions: SubscriptionService;
}

/** What the billing services are built over. */
export interface BillingServicesWorld {
  readonly table: Table;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly vault: LicenseKeyVault;
  readonly payments: Payments;
  readonly mailer: Mailer;
  readonly publicUrl: string;
}

/** The billing services over one world, sharing one subscription sync. */
export function billingServicesOf(world: BillingServicesWorld): BillingServices {
  const { table, clock, logger, vault, payments, mailer, publicUrl } = world;
  const licenses = new LicenseRepository(table);
  const subscriptions = new SubscriptionRepository(table);
  const sync = new SubscriptionSync({
    licenses,
    subscriptions,
    vault,
    payments,
    mailer,
    clock,
    logger,
    publicUrl,
  });
  return {
    checkout: new CheckoutService({ payments, logger, publicUrl }),
    paymentEvents: new PaymentEventService({ events: new StripeEventRepository(table), sync, clock, logger }),
    subscriptions: new SubscriptionService({
      licenses,
      subscriptions,
      sync,
      vault,
      payments,
      clock,
      logger,
      publicUrl,
    }),
  };
}

/** What a billing handler works with: the services, the payment provider and the licence-key vault. */
export interface BillingContext extends BillingServices {
  readonly payments: Payments;
  readonly vault: LicenseKeyVault;
}

type BillingWorld = Pick<AppDependencies, 'table' | 'appKeys' | 'clock' | 'logger' | 'billing'>;

/**
 * The billing services of a handler, built per request from the world's ports (the Stripe client
 * and the server keys are themselves built once per process).
 */
export function billingContextOf(deps: BillingWorld): () => Promise<BillingContext> {
  return async () => {
    const ports = billingPortsOf(deps);
    const [keys, payments] = await Promise.all([deps.appKeys(), ports.payments()]);
    const vault = createLicenseKeyVault(keys);
    const services = billingServicesOf({
      table: deps.table,
      clock: deps.clock,
      logger: deps.logger,
      vault,
      payments,
      mailer: ports.mailer,
      publicUrl: ports.publicUrl(),
    });
    return { ...services, payments, vault };
  };
}

/** The portal-link service of a request: counts it and hands the e-mail on, nothing more. */
export async function portalLinkServiceOf(
  deps: Pick<AppDependencies, 'table' | 'appKeys' | 'clock' | 'portalLinks'>,
): Promise<PortalLinkService> {
  const queue = deps.portalLinks;
  if (!queue) throw new Error('Envoi des liens du portail client non configuré');
  const keys = await deps.appKeys();
  return new PortalLinkService({
    attempts: new SignInAttemptRepository(deps.table),
    licenseHashKey: keys.licenseHashKey,
    clock: deps.clock,
    queue,
  });
}

/** The sender of the portal links, after the reply (the Stripe client and the keys built once per process). */
export async function portalLinkSenderOf(deps: BillingWorld): Promise<PortalLinkSender> {
  const ports = billingPortsOf(deps);
  const [keys, payments] = await Promise.all([deps.appKeys(), ports.payments()]);
  return new PortalLinkSender({
    attempts: new SignInAttemptRepository(deps.table),
    subscriptions: new SubscriptionRepository(deps.table),
    licenses: new LicenseRepository(deps.table),
    licenseHashKey: keys.licenseHashKey,
    payments,
    mailer: ports.mailer,
    clock: deps.clock,
    logger: deps.logger,
    publicUrl: ports.publicUrl(),
  });
}

/** The admin's resend of a licence e-mail: the table, the keys and the mailer, no payment provider. */
export async function licenseEmailResendOf(deps: BillingWorld): Promise<LicenseEmailResend> {
  const ports = billingPortsOf(deps);
  return new LicenseEmailResend({
    lawyers: new LawyerRepository(deps.table),
    licenses: new LicenseRepository(deps.table),
    audit: auditTrailOf(deps),
    vault: createLicenseKeyVault(await deps.appKeys()),
    mailer: ports.mailer,
    clock: deps.clock,
    logger: deps.logger,
    publicUrl: ports.publicUrl(),
  });
}

/** The retention purge over a world's table, deleting through its lawyer service. */
export const dataRetentionOf = (
  deps: { readonly table: Table; readonly clock: Clock; readonly logger: Logger },
  lawyers: Pick<LawyerService, 'purgeLicenseHolder'>,
) =>
  new DataRetention({
    subscriptions: new SubscriptionRepository(deps.table),
    lawyers,
    clock: deps.clock,
    logger: deps.logger,
  });

/** The recorder of SES bounces and complaints, over a world's table. */
export const undeliveredMailOf = (deps: Pick<AppDependencies, 'table' | 'clock' | 'logger' | 'metrics'>) =>
  new UndeliveredMail({
    licenses: new LicenseRepository(deps.table),
    lawyers: new LawyerRepository(deps.table),
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
