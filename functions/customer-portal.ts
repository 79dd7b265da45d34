import { billingContextOf, ownLicense } from './domain/billing-context';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/** POST /api/customer-portal (lawyer, notary): a Stripe customer-portal session for the caller's subscription. */
export const createCustomerPortalHandler = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  return apiHandler(deps, {
    customerPortal: async ({ body, session }) => {
      const { service, vault } = await billing();
      const license = ownLicense(session, body.licenseKey, vault);
      // The portal's return link leads back to the subscription page of the caller's role.
      return service.customerPortal(license, `/${session.role}/settings`);
    },
  });
};

export const handler = lambdaEntry(createCustomerPortalHandler);
