import { AuditQuery } from '../shared/schemas/directory';
import { AuditTrail } from './domain/audit';
import { parsedQuery } from './http/parameters';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/** GET /api/audit: the admin audit trail, newest first, one page at a time. */
export const createAuditHandler = (deps: AppDependencies) => {
  const trail = new AuditTrail(deps.table, deps.clock);

  return apiHandler(deps, {
    listAudit: async ({ query }) => {
      const { limit, cursor } = parsedQuery(AuditQuery, query);
      return trail.page(limit, cursor);
    },
  });
};

export const handler = lambdaEntry(createAuditHandler);
