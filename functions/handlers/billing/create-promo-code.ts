import { keptByProvider } from '../../http/kept-replies';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';

/**
 * POST /api/create-promo-code (admin): a 100 % promotion code usable at most 10 times (/admin/test-promo).
 * A retry with the same Idempotency-Key gets the same code: Stripe keeps the first result under it.
 */
const create = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(
    deps,
    {
      createPromoCode: async ({ replyKey }) =>
        (await billing()).checkout.createTestPromoCode(replyKey?.key ?? null),
    },
    { keptReplies: keptByProvider },
  );
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCreatePromoCodeHandler = declaredFunction('create-promo-code', create);

export const handler = lambdaEntry('create-promo-code', createCreatePromoCodeHandler);
