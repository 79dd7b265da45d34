import { ownLicense } from '../../domain/billing/own-license';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';

/** POST /api/customer-portal (lawyer, notary): a Stripe customer-portal session for the caller's subscription. */
const create = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    customerPortal: async ({ body, session }) => {
      const { subscriptions, vault } = await billing();
      const license = ownLicense(session, body.licenseKey, vault);
      // The portal's return link leads back to the subscription page of the caller's role.
      return subscriptions.customerPortal(license, `/${session.role}/settings`);
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCustomerPortalHandler = declaredFunction('customer-portal', create);

export const handler = lambdaEntry('customer-portal', createCustomerPortalHandler);
