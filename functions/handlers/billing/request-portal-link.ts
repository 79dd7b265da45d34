import { billingPortsOf } from '../../domain/billing/billing-context';
import { PortalLinkService } from '../../domain/billing/portal-link';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';

/** POST /api/request-portal-link (public): a customer-portal link e-mailed to a licence's address. */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    requestPortalLink: async ({ body, clientAddress }) => {
      const ports = billingPortsOf(deps);
      const [keys, payments] = await Promise.all([deps.appKeys(), ports.payments()]);
      const service = new PortalLinkService({
        table: deps.table,
        licenseHashKey: keys.licenseHashKey,
        payments,
        mailer: ports.mailer,
        clock: deps.clock,
        logger: deps.logger,
        publicUrl: ports.publicUrl(),
      });
      // Throttled: TooManyAttemptsError, a 429 with its French message as any error reply.
      return service.request(body.email, await clientAddress());
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createRequestPortalLinkHandler = declaredFunction('request-portal-link', create);

export const handler = lambdaEntry('request-portal-link', createRequestPortalLinkHandler);
