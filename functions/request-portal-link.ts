import { billingPortsOf } from './domain/billing-context';
import { PortalLinkService } from './domain/portal-link';
import { apiHandler, withStatus } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';
import { declaredFunction, lambdaEntry } from './runtime/entry';

/** 429 like a throttled sign-in. */
const TOO_MANY_REQUESTS = 429;

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
      const outcome = await service.request(body.email, await clientAddress());
      return outcome.throttled ? withStatus(TOO_MANY_REQUESTS, outcome.reply) : outcome.reply;
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createRequestPortalLinkHandler = declaredFunction('request-portal-link', create);

export const handler = lambdaEntry('request-portal-link', createRequestPortalLinkHandler);
