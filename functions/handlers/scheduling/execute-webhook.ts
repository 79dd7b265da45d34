import { MESSAGES } from '../../../shared/messages';
import { idParameter } from '../../http/parameters';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { manualRunServiceOf } from '../../runtime/services/scheduling';

/**
 * POST /api/execute-webhook: 'Exécuter' (spec §4 manual run, §7 execute-webhook). The server calls
 * the named workflow's own webhook, signed and SSRF-guarded, and records it in the history.
 * POST /api/workflows/{id}/executions/replay: 'Rejouer', a run of the history sent again the same
 * way, under the same 30-second lock.
 */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    executeWebhook: async ({ body, session }) => manualRunServiceOf(deps).run(session, body),
    replayExecution: async ({ body, session, pathParameters }) =>
      manualRunServiceOf(deps).replay(session, idParameter(pathParameters, MESSAGES.workflow.notFound), body),
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createExecuteWebhookHandler = declaredFunction('execute-webhook', create);

export const handler = lambdaEntry('execute-webhook', createExecuteWebhookHandler);
