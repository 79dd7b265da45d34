import { ownLicense } from '../../domain/billing/own-license';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';

/**
 * POST /api/cancel-subscription (lawyer, notary): cancels the caller's subscription at once; the
 * licence becomes inactive (this session's next request is refused), a confirmation e-mail goes
 * out, and the lawyer's data is purged 30 days later.
 */
const create = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    cancelSubscription: async ({ body, session }) => {
      const { service, vault } = await billing();
      return service.cancelSubscription(ownLicense(session, body.licenseKey, vault));
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCancelSubscriptionHandler = declaredFunction('cancel-subscription', create);

export const handler = lambdaEntry('cancel-subscription', createCancelSubscriptionHandler);
