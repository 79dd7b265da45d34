import { MESSAGES } from '../../../shared/messages';
import type { LicenseRecord } from '../../data/identity/licenses';
import type { BillingPorts } from '../../runtime/billing-ports';
import type { AppDependencies } from '../../runtime/dependencies';
import { createLicenseKeyVault, type LicenseKeyVault } from '../../security/license-key-vault';
import { ForbiddenError } from '../core/errors';
import type { SessionContext } from '../identity/sessions';
import { BillingService } from './billing';
import type { Payments } from './payments';

/** The billing ports of a composition root; a root without them cannot serve a billing call. */
export function billingPortsOf(deps: AppDependencies): BillingPorts {
  if (!deps.billing) throw new Error('Facturation non configurée dans cet environnement');
  return deps.billing;
}

/** What a billing handler works with: the service, the payment provider and the licence-key vault. */
export interface BillingContext {
  readonly service: BillingService;
  readonly payments: Payments;
  readonly vault: LicenseKeyVault;
}

/**
 * The billing service of a handler, built per request from the environment's ports (the Stripe
 * client and the server keys are themselves built once per process).
 */
export function billingContextOf(deps: AppDependencies): () => Promise<BillingContext> {
  return async () => {
    const ports = billingPortsOf(deps);
    const [keys, payments] = await Promise.all([deps.appKeys(), ports.payments()]);
    const vault = createLicenseKeyVault(keys);
    const service = new BillingService({
      table: deps.table,
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

/**
 * The licence a member's subscription call is about: always the session's own. A key in the
 * request is accepted only when it is that licence's key, so that a lawyer never reads, cancels
 * or re-assigns another firm's subscription (403 otherwise).
 */
export function ownLicense(
  session: SessionContext,
  requestedKey: string | undefined,
  vault: LicenseKeyVault,
): LicenseRecord {
  if (requestedKey !== undefined && !vault.matches(requestedKey, session.licenseKeyHash))
    throw new ForbiddenError(MESSAGES.session.forbidden);
  return session.license;
}
