import { createExecuteWebhookHandler } from '../execute-webhook';
import { createExecutionsHandler } from '../executions';
import type { HandlerFactory } from '../registry';
import { createWorkflowSchedulerHandler } from '../workflow-scheduler';

export const SCHEDULING_HANDLERS: Record<string, HandlerFactory> = {
  'workflow-scheduler': createWorkflowSchedulerHandler,
  'execute-webhook': createExecuteWebhookHandler,
  executions: createExecutionsHandler,
};
