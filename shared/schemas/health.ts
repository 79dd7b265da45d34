import * as z from 'zod';

import { DASHBOARD_FAILING_LISTED, HEALTH_LOOKUP_MAX } from '../constants';
import { MESSAGES } from '../messages';
import { EmailAddress, EntityId, IsoTimestamp } from './common';

/**
 * The health of an automation, as the worker maintains it run after run:
 * - `paused` ('Suspendue'): scheduling paused by the automatic pause, until 'Reprendre';
 * - `failing` ('En échec'): its last two runs or more ended in failure;
 * - `degraded` ('Dégradée'): its last run failed once, or succeeded only after retries;
 * - `healthy` ('En bonne santé'): its last run succeeded at the first attempt, or it never ran.
 */
export const HealthState = z.enum(['healthy', 'degraded', 'failing', 'paused']);
export type HealthState = z.infer<typeof HealthState>;

/** The health of one automation, as its card shows it. */
export const WorkflowHealth = z.object({
  workflowId: EntityId,
  state: HealthState,
  lastSuccessAt: IsoTimestamp.nullable(),
  lastFailureAt: IsoTimestamp.nullable(),
  lastFailureMessage: z.string().nullable(),
  lastFailureStatus: z.number().int().nullable(),
  /** Runs ended in failure since the last success (retries of one run count once). */
  consecutiveFailures: z.number().int(),
  /** When the automatic pause stopped its scheduling, and why ('Suspendue après 5 échecs…'). */
  pausedAt: IsoTimestamp.nullable(),
  pauseReason: z.string().nullable(),
});
export type WorkflowHealth = z.infer<typeof WorkflowHealth>;

/** Runs of one window: how many ended, how many in success, and the p95 of the calls' durations. */
export const HealthWindow = z.object({
  runs: z.number().int(),
  succeeded: z.number().int(),
  /**
   * Runs delivered whose workflow then reported a failure ('Réception OK, traitement en échec'):
   * counted as failures, apart from the delivery failures. Absent from replies made before reports.
   */
  processingFailed: z.number().int().optional(),
  /** Succeeded over ended runs, 0 to 1; null without runs. */
  successRate: z.number().nullable(),
  /** The upper bound of the duration bucket holding the 95th percentile of the calls, in ms. */
  p95DurationMs: z.number().int().nullable(),
});
export type HealthWindow = z.infer<typeof HealthWindow>;

/** The health of one automation with its windows (GET /api/workflows/{id}/health). */
export const WorkflowHealthDetail = WorkflowHealth.extend({
  last24Hours: HealthWindow,
  last7Days: HealthWindow,
});
export type WorkflowHealthDetail = z.infer<typeof WorkflowHealthDetail>;

/**
 * The automations whose health the cards shown ask for (GET /api/health/workflows?ids=a,b,c): their
 * ids, comma-separated, 1 to `HEALTH_LOOKUP_MAX`.
 */
export const WorkflowHealthQuery = z.object({
  ids: z
    .string(MESSAGES.request.invalidIds)
    .transform((ids) => [...new Set(ids.split(','))])
    .refine(
      (ids) => ids.length <= HEALTH_LOOKUP_MAX && ids.every((id) => EntityId.safeParse(id).success),
      MESSAGES.request.invalidIds,
    ),
});
export type WorkflowHealthQuery = z.input<typeof WorkflowHealthQuery>;

/**
 * The health of the automations asked for that the caller may see (an admin: any; a member: his
 * own), in no particular order; an id of a deleted automation, or of someone else's, has none.
 */
export const WorkflowHealthList = z.object({
  workflows: z.array(WorkflowHealth).max(HEALTH_LOOKUP_MAX),
});
export type WorkflowHealthList = z.infer<typeof WorkflowHealthList>;

/** The calls of one hour, by outcome, and the p95 of the dispatch lag (due time to call). */
export const DeliveryHour = z.object({
  /** The hour's start (ISO). */
  hour: IsoTimestamp,
  succeeded: z.number().int(),
  retried: z.number().int(),
  failed: z.number().int(),
  deadLettered: z.number().int(),
  /**
   * Runs delivered whose workflow then reported a failure ('Réception OK, traitement en échec'),
   * in the hour of their call; not in `failed`, which counts delivery failures.
   */
  reportedFailed: z.number().int().optional(),
  /** The upper bound of the lag bucket of the 95th percentile, ms; null without scheduled calls. */
  lagP95Ms: z.number().int().nullable(),
});
export type DeliveryHour = z.infer<typeof DeliveryHour>;

/** An automation in failure, as the dashboard lists it first. */
export const FailingWorkflow = z.object({
  workflowId: EntityId,
  workflowName: z.string(),
  state: HealthState,
  consecutiveFailures: z.number().int(),
  lastFailureAt: IsoTimestamp.nullable(),
  lastFailureMessage: z.string().nullable(),
});
export type FailingWorkflow = z.infer<typeof FailingWorkflow>;

/** GET /api/health/dashboard: the last 24 hours, oldest first, and the automations in failure. */
export const HealthDashboard = z.object({
  hours: z.array(DeliveryHour),
  /** The most severe first, `DASHBOARD_FAILING_LISTED` at most. */
  failing: z.array(FailingWorkflow).max(DASHBOARD_FAILING_LISTED),
  /** How many automations are in failure: more than `failing` lists when it is cut. */
  failingTotal: z.number().int().nonnegative(),
});
export type HealthDashboard = z.infer<typeof HealthDashboard>;

/** The bounds of the automatic pause's threshold. */
export const PAUSE_AFTER_FAILURES = { default: 5, min: 1, max: 50 } as const;

/** The health settings of /admin/settings (GET and PUT /api/health/settings). */
export const HealthSettings = z.object({
  /** Consecutive failed due runs after which scheduling is paused. */
  pauseAfterFailures: z
    .number({ error: MESSAGES.validation.pauseAfterFailures })
    .int({ error: MESSAGES.validation.pauseAfterFailures })
    .min(PAUSE_AFTER_FAILURES.min, { error: MESSAGES.validation.pauseAfterFailures })
    .max(PAUSE_AFTER_FAILURES.max, { error: MESSAGES.validation.pauseAfterFailures }),
  /** Where the admin's alerts go; null: the deployment's address (`deploymentAlertEmail`). */
  alertEmail: EmailAddress(MESSAGES.validation.alertEmail).nullable(),
  /** A daily e-mail to the admin listing the automations in failure. */
  dailyDigest: z.boolean(),
});
export type HealthSettings = z.infer<typeof HealthSettings>;

/**
 * The settings as /admin/settings shows them, with the alert address set at deployment (`-c
 * alertEmail`, else `alarmEmail`; null when none): with neither, no admin alert reaches anyone.
 */
export const HealthSettingsReply = HealthSettings.extend({ deploymentAlertEmail: z.string().nullable() });
export type HealthSettingsReply = z.infer<typeof HealthSettingsReply>;

/** 'Tester la connexion' (POST /api/workflows/{id}/test-connection): the call's outcome, in French. */
export const ConnectionTestReply = z.object({
  success: z.boolean(),
  status: z.number().int().nullable(),
  message: z.string(),
});
export type ConnectionTestReply = z.infer<typeof ConnectionTestReply>;
