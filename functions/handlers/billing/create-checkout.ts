import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { checkoutOf } from '../../runtime/services/checkout';

/**
 * POST /api/create-checkout (public): the Stripe Checkout of a new licence, 950 EUR once then
 * 150 EUR a month, with the promotion code if it is usable; the browser is sent to its `url`.
 */
const create = (deps: AppDependencies) => {
  const checkout = checkoutOf(deps);
  return apiHandler(deps, {
    createCheckout: async ({ body }) => (await checkout()).createCheckout(body),
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCreateCheckoutHandler = declaredFunction('create-checkout', create);

export const handler = lambdaEntry('create-checkout', createCreateCheckoutHandler);
