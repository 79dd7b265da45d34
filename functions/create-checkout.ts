import { billingContextOf } from './domain/billing-context';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/**
 * POST /api/create-checkout (public): the Stripe Checkout of a new licence, 950 EUR once then
 * 150 EUR a month, with the promotion code if it is usable; the browser is sent to its `url`.
 */
export const createCreateCheckoutHandler = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    createCheckout: async ({ body }) => (await billing()).service.createCheckout(body),
  });
};

export const handler = lambdaEntry(createCreateCheckoutHandler);
