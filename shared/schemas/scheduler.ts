import * as z from 'zod';

import { EntityId, IsoTimestamp, NextCursor } from './common';
import { RunReport } from './completion-report';

/**
 * What started an execution; 'test': 'Tester la connexion' (recorded, never counted in health);
 * 'replay': 'Rejouer', a run's body sent again with its webhook-id.
 */
export const ExecutionTrigger = z.enum(['schedule', 'manual', 'manual_force', 'redrive', 'test', 'replay']);
export type ExecutionTrigger = z.infer<typeof ExecutionTrigger>;

/** workflow-scheduler request (spec §7). */
export const SchedulerRequest = z.object({
  trigger: z.enum(['manual', 'manual_force']),
  timestamp: IsoTimestamp.optional(),
});
export type SchedulerRequest = z.infer<typeof SchedulerRequest>;

/** One dispatched workflow of a scheduler run. */
export const SchedulerExecution = z.object({
  workflowId: EntityId,
  workflowName: z.string(),
  /** 'queued' until its call ends; then the call's 'success' or 'failed' (the worker reports it). */
  status: z.enum(['queued', 'success', 'failed']),
  message: z.string().optional(),
});
export type SchedulerExecution = z.infer<typeof SchedulerExecution>;

/** Scheduler run result (spec §3). */
export const SchedulerResult = z.object({
  success: z.boolean(),
  timestamp: IsoTimestamp,
  workflows_checked: z.number().int(),
  /**
   * The runs queued or failed, all of them: `executions` lists a few per due-index shard (every
   * run would make the reply grow with the firms' automations). Absent from results kept before
   * it was added; `executions` counted them all then.
   */
  workflows_processed: z.number().int().optional(),
  executions: z.array(SchedulerExecution),
  message: z.string(),
  error: z.string().optional(),
});
export type SchedulerResult = z.infer<typeof SchedulerResult>;

/** execute-webhook request: the workflow by id; a webhook URL, if sent, must be that workflow's. */
export const ExecuteWebhookRequest = z.object({
  workflowId: EntityId,
  webhookUrl: z.string().optional(),
  payload: z
    .object({
      timestamp: IsoTimestamp.optional(),
      source: z.literal('notary_app').optional(),
      trigger: z.literal('manual').optional(),
    })
    .optional(),
});
export type ExecuteWebhookRequest = z.infer<typeof ExecuteWebhookRequest>;

/** execute-webhook reply (spec §7). */
export const ExecuteWebhookReply = z.object({
  success: z.boolean(),
  status: z.number().int().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
});
export type ExecuteWebhookReply = z.infer<typeof ExecuteWebhookReply>;

/** One recorded webhook call of a workflow. */
export const Execution = z.object({
  id: z.string(),
  workflowId: EntityId,
  trigger: ExecutionTrigger,
  startedAt: IsoTimestamp,
  durationMs: z.number().int(),
  httpStatus: z.number().int().nullable(),
  /** 'cancelled': a dispatched run not called, the automation switched off meanwhile (message says which). */
  outcome: z.enum(['success', 'failed', 'cancelled']),
  message: z.string(),
  attempt: z.number().int(),
  /**
   * What follows a failed scheduled call that may succeed later: 'scheduled', another attempt
   * after the back-off; 'dead_letter', attempts exhausted, the run waits in the dead-letter queue
   * for an admin to send it back. Absent on successes and on final failures.
   */
  retry: z.enum(['scheduled', 'dead_letter']).optional(),
  /**
   * The run this call belongs to, as its completion report names it (`report.runId`): the run's
   * webhook-id, shared by its attempts; a replay, sent with the same webhook-id, reports on its
   * own under an id of its own. Absent from calls recorded before reports existed.
   */
  runId: z.string().optional(),
  /** The run's completion report, beside the delivery; null when there is none to show. */
  report: RunReport.nullable().optional(),
});
export type Execution = z.infer<typeof Execution>;

/**
 * The execution history of a workflow, one page, newest first (GET /api/workflows/{id}/executions,
 * query: PageQuery).
 */
export const ExecutionList = z.object({ executions: z.array(Execution), nextCursor: NextCursor });
export type ExecutionList = z.infer<typeof ExecutionList>;

/**
 * A dispatched run's id (its webhook-id: `<workflow id>:<due time>`), which its end's row in the
 * history carries as its own id.
 */
const DispatchedRunId = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/i,
  );

/**
 * 'Rejouer' (POST /api/workflows/{id}/executions/replay): the history's row whose run is sent again,
 * named by its id (a call's, or a dispatched run's end's) and its start.
 */
export const ReplayRequest = z.object({
  executionId: z.union([EntityId, DispatchedRunId]),
  startedAt: IsoTimestamp,
});
export type ReplayRequest = z.infer<typeof ReplayRequest>;

/** A replay's outcome, as 'Exécuter' answers. */
export const ReplayReply = ExecuteWebhookReply;
export type ReplayReply = z.infer<typeof ReplayReply>;

/** A scheduler run as kept for /admin/settings: its result and what started it. */
export const SchedulerRun = SchedulerResult.extend({
  trigger: z.enum(['schedule', 'manual', 'manual_force']),
});
export type SchedulerRun = z.infer<typeof SchedulerRun>;

/**
 * Scheduler status (GET /api/scheduler/status): the last run of the minute schedule, the last run
 * an admin started, and how many runs wait in the dead-letter queue (null when it cannot be read).
 */
export const SchedulerStatusReply = z.object({
  lastScheduledRun: SchedulerRun.nullable(),
  lastManualRun: SchedulerRun.nullable(),
  deadLetterCount: z.number().int().nullable(),
});
export type SchedulerStatusReply = z.infer<typeof SchedulerStatusReply>;

/**
 * Dead-lettered runs sent back for another try (POST /api/dead-letters/redrive), and those that
 * could not be, by reason: their automation deleted, their firm's licence inactive.
 */
export const RedriveReply = z.object({
  moved: z.number().int(),
  notSent: z.object({ workflowDeleted: z.number().int(), licenseInactive: z.number().int() }),
  message: z.string(),
});
export type RedriveReply = z.infer<typeof RedriveReply>;
