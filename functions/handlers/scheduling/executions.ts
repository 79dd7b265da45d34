import { MESSAGES } from '../../../shared/messages';
import { EntityId } from '../../../shared/schemas/common';
import { NotFoundError } from '../../domain/core/errors';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { completionReportsOf, executionHistoryOf } from '../../runtime/services/scheduling';

/**
 * GET /api/workflows/{id}/executions: the newest calls of a workflow, newest first (time,
 * trigger, status, duration, message), each run's completion report beside its delivery. An admin
 * sees any workflow's, a lawyer his own.
 */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    workflowExecutions: async ({ pathParameters, query, session }) => {
      const id = EntityId.safeParse(pathParameters.id);
      if (!id.success) throw new NotFoundError(MESSAGES.workflow.notFound);
      const { limit, cursor } = query;
      const page = await executionHistoryOf(deps.table).page(session, id.data, limit, cursor);
      return {
        executions: await completionReportsOf(deps).withReports(id.data, page.items),
        nextCursor: page.nextCursor,
      };
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createExecutionsHandler = declaredFunction('executions', create);

export const handler = lambdaEntry('executions', createExecutionsHandler);
