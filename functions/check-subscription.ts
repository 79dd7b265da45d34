import { billingContextOf, ownLicense } from './domain/billing-context';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/**
 * POST /api/check-subscription (lawyer, notary): the caller's licence and subscription, refreshed
 * from Stripe ('Actualiser' on the subscription page).
 */
export const createCheckSubscriptionHandler = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    checkSubscription: async ({ body, session }) => {
      const { service, vault } = await billing();
      return service.checkSubscription(ownLicense(session, body.licenseKey, vault));
    },
  });
};

export const handler = lambdaEntry(createCheckSubscriptionHandler);
