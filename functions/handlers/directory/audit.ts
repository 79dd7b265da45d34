import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { auditTrailOf } from '../../runtime/services/directory';

/** GET /api/audit: the admin audit trail, newest first, one page at a time. */
const create = (deps: AppDependencies) => {
  const trail = auditTrailOf(deps);

  return apiHandler(deps, {
    listAudit: async ({ query }) => {
      const { limit, cursor } = query;
      return trail.page(limit, cursor);
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createAuditHandler = declaredFunction('audit', create);

export const handler = lambdaEntry('audit', createAuditHandler);
