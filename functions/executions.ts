import { MESSAGES } from '../shared/messages';
import { EntityId } from '../shared/schemas/common';
import { ExecutionRepository } from './data/executions';
import { LawyerRepository } from './data/lawyers';
import { WorkflowRepository } from './data/workflows';
import { NotFoundError } from './domain/errors';
import { visibleWorkflow } from './domain/members';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/**
 * GET /api/workflows/{id}/executions: the newest calls of a workflow, newest first (time,
 * trigger, status, duration, message). An admin sees any workflow's, a lawyer his own.
 */
export const createExecutionsHandler = (deps: AppDependencies) =>
  apiHandler(deps, {
    workflowExecutions: async ({ pathParameters, session }) => {
      const id = EntityId.safeParse(pathParameters.id);
      if (!id.success) throw new NotFoundError(MESSAGES.workflow.notFound);
      const workflow = await visibleWorkflow(
        new WorkflowRepository(deps.table),
        new LawyerRepository(deps.table),
        session,
        id.data,
      );
      return { executions: await new ExecutionRepository(deps.table).listByWorkflow(workflow.id) };
    },
  });

export const handler = lambdaEntry(createExecutionsHandler);
