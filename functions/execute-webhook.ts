import { ManualRunService } from './domain/manual-run';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/**
 * POST /api/execute-webhook: 'Exécuter' (spec §4 manual run, §7 execute-webhook). The server calls
 * the named workflow's own webhook, signed and SSRF-guarded, and records it in the history.
 */
export const createExecuteWebhookHandler = (deps: AppDependencies) =>
  apiHandler(deps, {
    executeWebhook: async ({ body, session }) => new ManualRunService(deps).run(session, body),
  });

export const handler = lambdaEntry(createExecuteWebhookHandler);
