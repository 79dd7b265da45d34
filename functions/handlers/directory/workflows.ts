import { MESSAGES } from '../../../shared/messages';
import { keptReplies } from '../../http/kept-replies';
import { idParameter } from '../../http/parameters';
import { apiHandler, withStatus } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { workflowServiceOf } from '../../runtime/services/directory';
import { firstRepliesOf } from '../../runtime/services/kept-replies';
import { scheduleStartsOf } from '../../runtime/services/scheduling';

/**
 * /api/workflows: every workflow for an admin (create, edit, delete, toggles), his own for a lawyer
 * or notary (list, read, scheduling switch).
 */
const create = (deps: AppDependencies) => {
  const workflows = workflowServiceOf(deps, scheduleStartsOf(deps));
  const workflowId = (pathParameters: Readonly<Record<string, string | undefined>>) =>
    idParameter(pathParameters, MESSAGES.workflow.notFound);

  return apiHandler(
    deps,
    {
      // The page read beside the session's check, used only if the session re-read allows it.
      listWorkflows: async ({ query, session, early }) => workflows.list(session, query, early),
      directoryCounts: async ({ session }) => workflows.counts(session),
      getWorkflow: async ({ pathParameters, session }) => workflows.get(workflowId(pathParameters), session),
      createWorkflow: async ({ body, session, replyKey }) =>
        withStatus(201, await workflows.create(body, session, replyKey)),
      updateWorkflow: async ({ body, pathParameters, session }) =>
        workflows.update(workflowId(pathParameters), body, session),
      deleteWorkflow: async ({ pathParameters, session }) => {
        await workflows.delete(workflowId(pathParameters), session);
        return { success: true };
      },
      toggleWorkflowActive: async ({ pathParameters, session }) =>
        workflows.toggleActive(workflowId(pathParameters), session),
      toggleWorkflowScheduling: async ({ pathParameters, session }) =>
        workflows.toggleScheduling(workflowId(pathParameters), session),
    },
    {
      keptReplies: (route) => keptReplies(route, firstRepliesOf(deps.table)),
      // Started from the token's claims, before the session and licence are re-read.
      earlyReads: { listWorkflows: ({ query, claims }) => workflows.readAhead(query, claims) },
    },
  );
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createWorkflowsHandler = declaredFunction('workflows', create);

export const handler = lambdaEntry('workflows', createWorkflowsHandler);
