import { billingContextOf } from './domain/billing-context';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/** POST /api/create-promo-code (admin): a 100 % promotion code usable at most 10 times (/admin/test-promo). */
export const createCreatePromoCodeHandler = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    createPromoCode: async () => (await billing()).service.createTestPromoCode(),
  });
};

export const handler = lambdaEntry(createCreatePromoCodeHandler);
