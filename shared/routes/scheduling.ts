import { PageQuery } from '../schemas/common';
import { CompletionReportReply, CompletionReportRequest } from '../schemas/completion-report';
import {
  ExecuteWebhookReply,
  ExecuteWebhookRequest,
  ExecutionList,
  RedriveReply,
  ReplayReply,
  ReplayRequest,
  SchedulerRequest,
  SchedulerResult,
  SchedulerStatusReply,
} from '../schemas/scheduler';
import type { RouteDefinition } from './route-definition';

/** The scheduler, manual runs and execution history. */
export const SCHEDULING_ROUTES = {
  /** 'Déclencher Maintenant' on /admin/settings: one scheduler run, forced or not (spec §7). */
  workflowScheduler: {
    method: 'POST',
    path: '/api/workflow-scheduler',
    handler: 'workflow-scheduler',
    access: 'admin',
    request: SchedulerRequest,
    response: SchedulerResult,
  },
  /** The last result and the dead-letter count of /admin/settings. */
  schedulerStatus: {
    method: 'GET',
    path: '/api/scheduler/status',
    handler: 'workflow-scheduler',
    access: 'admin',
    response: SchedulerStatusReply,
  },
  /** Sends the dead-lettered runs back to the queue for another try. */
  redriveDeadLetters: {
    method: 'POST',
    path: '/api/dead-letters/redrive',
    handler: 'workflow-scheduler',
    access: 'admin',
    response: RedriveReply,
  },
  /** 'Exécuter': a manual run of one workflow (admin: any; lawyer or notary: his own). */
  executeWebhook: {
    method: 'POST',
    path: '/api/execute-webhook',
    handler: 'execute-webhook',
    access: 'signed-in',
    request: ExecuteWebhookRequest,
    response: ExecuteWebhookReply,
  },
  /** The execution history of a workflow, newest first (admin: any; lawyer or notary: his own). */
  workflowExecutions: {
    method: 'GET',
    path: '/api/workflows/{id}/executions',
    handler: 'executions',
    access: 'signed-in',
    query: PageQuery,
    response: ExecutionList,
  },
  /**
   * 'Rejouer': a run of the history sent again, same body and webhook-id, recorded as a replay
   * (admin: any; lawyer or notary: his own), under the 30-second lock of 'Exécuter'.
   */
  replayExecution: {
    method: 'POST',
    path: '/api/workflows/{id}/executions/replay',
    handler: 'execute-webhook',
    access: 'signed-in',
    request: ReplayRequest,
    response: ReplayReply,
  },
  /**
   * A run's completion report, posted by the workflow to the `report.url` of its webhook body: no
   * session, the signed single-use link is the credential (docs/n8n-completion-report.md).
   */
  submitCompletionReport: {
    method: 'POST',
    path: '/api/reports/{token}',
    handler: 'completion-report',
    access: 'public',
    request: CompletionReportRequest,
    response: CompletionReportReply,
  },
} as const satisfies Record<string, RouteDefinition>;
