import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { portalLinkServiceOf } from '../../runtime/services/billing';

/**
 * POST /api/request-portal-link (public): answers at once, the same whatever the e-mail; the
 * customer-portal link is looked for and e-mailed after the reply (`portal-link-sender`).
 */
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
