import { MESSAGES } from '../../../shared/messages';
import { idParameter } from '../../http/parameters';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { healthServiceOf } from '../../runtime/services/health';
import { scheduleStartsOf } from '../../runtime/services/scheduling';

/**
 * Automation health: the cards' states, one workflow's figures, the dashboard,
 * 'Reprendre', 'Tester la connexion' and the settings of /admin/settings. An admin reaches every
 * automation, a lawyer or notary his own (HealthService, through members.ts).
 */
const create = (deps: AppDependencies) => {
  const health = healthServiceOf(deps, scheduleStartsOf(deps));
  const workflowId = (pathParameters: Readonly<Record<string, string | undefined>>) =>
    idParameter(pathParameters, MESSAGES.workflow.notFound);

  return apiHandler(deps, {
    workflowsHealth: async ({ query, session }) => health.lookUp(session, query.ids),
    workflowHealth: async ({ pathParameters, session }) => health.detail(session, workflowId(pathParameters)),
    healthDashboard: async ({ session }) => health.dashboard(session),
    resumeWorkflow: async ({ pathParameters, session }) => health.resume(session, workflowId(pathParameters)),
    testWorkflowConnection: async ({ pathParameters, session }) =>
      health.testConnection(session, workflowId(pathParameters)),
    healthSettings: async () => health.settings(),
    updateHealthSettings: async ({ body, session }) => health.saveSettings(session, body),
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createAutomationHealthHandler = declaredFunction('automation-health', create);

export const handler = lambdaEntry('automation-health', createAutomationHealthHandler);
