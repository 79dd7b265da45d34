import { ownLicense } from '../../domain/billing/own-license';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';

/**
 * POST /api/check-subscription (lawyer, notary): the caller's licence and subscription, refreshed
 * from Stripe ('Actualiser' on the subscription page).
 */
const create = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    checkSubscription: async ({ body, session }) => {
      const { subscriptions, vault } = await billing();
      return subscriptions.checkSubscription(ownLicense(session, body.licenseKey, vault));
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCheckSubscriptionHandler = declaredFunction('check-subscription', create);

export const handler = lambdaEntry('check-subscription', createCheckSubscriptionHandler);
