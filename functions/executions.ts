import { MESSAGES } from '../shared/messages';
import { EntityId, PageQuery } from '../shared/schemas/common';
import { ExecutionRepository } from './data/executions';
import { NotFoundError } from './domain/errors';
import { visibleWorkflow } from './domain/manual-run';
import { parsedQuery } from './http/parameters';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/**
 * GET /api/workflows/{id}/executions: the newest calls of a workflow, newest first (time,
 * trigger, status, duration, message). An admin sees any workflow's, a lawyer his own.
 */
export const createExecutionsHandler = (deps: AppDependencies) =>
  apiHandler(deps, {
    workflowExecutions: async ({ pathParameters, query, session }) => {
      const id = EntityId.safeParse(pathParameters.id);
      if (!id.success) throw new NotFoundError(MESSAGES.workflow.notFound);
      const { limit, cursor } = parsedQuery(PageQuery, query);
      const workflow = await visibleWorkflow(deps.table, session, id.data);
      const page = await new ExecutionRepository(deps.table).listByWorkflow(workflow.id, limit, cursor);
      return { executions: page.items, nextCursor: page.nextCursor };
    },
  });

export const handler = lambdaEntry(createExecutionsHandler);
