import { ownLicense } from '../../domain/billing/own-license';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';

/**
 * POST /api/cancel-subscription (lawyer, notary): stops the renewal of the caller's subscription
 * at once; access lasts until the end of the paid month, which the confirmation e-mail gives.
 * POST /api/reactivate-subscription withdraws it before that date.
 */
const create = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    cancelSubscription: async ({ body, session }) => {
      const { subscriptions, vault } = await billing();
      return subscriptions.cancelSubscription(ownLicense(session, body.licenseKey, vault));
    },
    reactivateSubscription: async ({ body, session }) => {
      const { subscriptions, vault } = await billing();
      return subscriptions.reactivateSubscription(ownLicense(session, body.licenseKey, vault));
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCancelSubscriptionHandler = declaredFunction('cancel-subscription', create);

export const handler = lambdaEntry('cancel-subscription', createCancelSubscriptionHandler);
