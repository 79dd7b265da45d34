import { StripeEventRepository } from '../../data/billing/stripe-events';
import { SubscriptionRepository } from '../../data/billing/subscriptions';
import { LawyerRepository } from '../../data/directory/lawyers';
import { LicenseRepository } from '../../data/identity/licenses';
import { SignInAttemptRepository } from '../../data/identity/sign-in-attempts';
import type { Table } from '../../data/table/table';
import { BillingService } from '../../domain/billing/billing';
import { PortalLinkService } from '../../domain/billing/portal-link';
import type { Payments } from '../../domain/billing/ports';
import { DataRetention } from '../../domain/billing/retention';
import { UndeliveredMail } from '../../domain/billing/undelivered-mail';
import type { Clock, Logger } from '../../domain/core/ports';
import type { LawyerService } from '../../domain/directory/lawyers';
import { createLicenseKeyVault, type LicenseKeyVault } from '../../security/license-key-vault';
import type { BillingPorts } from '../billing-ports';
import type { AppDependencies } from '../dependencies';

/* The billing services of a world, over its table and its billing ports. */

/** The billing ports of a composition root; a root without them cannot serve a billing call. */
export function billingPortsOf(deps: Pick<AppDependencies, 'billing'>): BillingPorts {
  if (!deps.billing) throw new Error('Facturation non configurée dans cet environnement');
  return deps.billing;
}

/** What a billing handler works with: the service, the payment provider and the licence-key vault. */
export interface BillingContext {
  readonly service: BillingService;
  readonly payments: Payments;
  readonly vault: LicenseKeyVault;
}

type BillingWorld = Pick<AppDependencies, 'table' | 'appKeys' | 'clock' | 'logger' | 'billing'>;

/**
 * The billing service of a handler, built per request from the world's ports (the Stripe client
 * and the server keys are themselves built once per process).
 */
export function billingContextOf(deps: BillingWorld): () => Promise<BillingContext> {
  return async () => {
    const ports = billingPortsOf(deps);
    const [keys, payments] = await Promise.all([deps.appKeys(), ports.payments()]);
    const vault = createLicenseKeyVault(keys);
    const service = new BillingService({
      licenses: new LicenseRepository(deps.table),
      events: new StripeEventRepository(deps.table),
      subscriptions: new SubscriptionRepository(deps.table),
      vault,
      payments,
      mailer: ports.mailer,
      clock: deps.clock,
      logger: deps.logger,
      publicUrl: ports.publicUrl(),
    });
    return { service, payments, vault };
  };
}

/** The portal-link service of a request (the Stripe client and the keys built once per process). */
export async function portalLinkServiceOf(deps: BillingWorld): Promise<PortalLinkService> {
  const ports = billingPortsOf(deps);
  const [keys, payments] = await Promise.all([deps.appKeys(), ports.payments()]);
  return new PortalLinkService({
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
