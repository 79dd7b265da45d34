import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { portalLinkServiceOf } from '../../runtime/services/billing';

/** POST /api/request-portal-link (public): a customer-portal link e-mailed to a licence's address. */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    requestPortalLink: async ({ body, clientAddress }) => {
      const service = await portalLinkServiceOf(deps);
      // Throttled: TooManyAttemptsError, a 429 with its French message as any error reply.
      return service.request(body.email, await clientAddress());
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createRequestPortalLinkHandler = declaredFunction('request-portal-link', create);

export const handler = lambdaEntry('request-portal-link', createRequestPortalLinkHandler);
