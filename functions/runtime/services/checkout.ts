import { CheckoutService } from '../../domain/billing/checkout';
import { billingPortsOf } from '../billing-ports';
import type { AppDependencies } from '../dependencies';

/*
 * The checkout of a new licence, apart from the billing services: its public function reads
 * nothing of ours, so it carries no repository and no table client.
 */

/** The checkout over a world's payment provider (built once per process) and its site address. */
export function checkoutOf(
  deps: Pick<AppDependencies, 'logger' | 'billing'>,
): () => Promise<CheckoutService> {
  return async () => {
    const ports = billingPortsOf(deps);
    return new CheckoutService({
      payments: await ports.payments(),
      logger: deps.logger,
      publicUrl: ports.publicUrl(),
    });
  };
}
