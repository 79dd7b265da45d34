import {
  DEFAULT_SCHEDULING_INTERVAL_MINUTES,
  SCHEDULING_INTERVAL_MINUTES,
  type WorkflowType,
} from '../../../shared/constants';

/* When a workflow is due, which slot a tick claims, and the dispatch of that slot. */

/** The due time of a workflow that never ran: before any real time, so it is due at once. */
export const NEVER_RAN = '0000-00-00T00:00:00.000Z';

/** How far ahead a tick looks: one tick, so that a run due within the next minute leaves on time. */
export const LOOK_AHEAD_MS = 60_000;

/** The largest delay SQS accepts on a message, in seconds. */
const MAX_SQS_DELAY_SECONDS = 900;

/** The fields of a workflow that decide whether and when it is due. */
export interface SchedulableWorkflow {
  readonly id: string;
  readonly type: WorkflowType | string;
  readonly active: boolean;
  readonly cronEnabled: boolean;
  readonly cronInterval: number | null;
  readonly cronLastRun: string | null;
  readonly cronNextRun: string | null;
}

/** The scheduling interval of a workflow in minutes: its own, else the one of its type (spec §9). */
export function intervalMinutesOf(workflow: Pick<SchedulableWorkflow, 'type' | 'cronInterval'>): number {
  if (workflow.cronInterval && workflow.cronInterval > 0) return workflow.cronInterval;
  return SCHEDULING_INTERVAL_MINUTES[workflow.type as WorkflowType] ?? DEFAULT_SCHEDULING_INTERVAL_MINUTES;
}

/** Whether a workflow belongs in the index at all: active and scheduled. */
export const isScheduled = (workflow: Pick<SchedulableWorkflow, 'active' | 'cronEnabled'>) =>
  workflow.active && workflow.cronEnabled;

/**
 * A workflow put in the schedule that never ran is due from `at`, stored as its next run, so that
 * two claims of its first run name the same due time, hence one dispatch id: n8n is called once.
 */
export function withFirstDue<T extends SchedulableWorkflow>(workflow: T, at: string): T {
  return isScheduled(workflow) && !workflow.cronNextRun && !workflow.cronLastRun
    ? { ...workflow, cronNextRun: at }
    : workflow;
}

/**
 * When a scheduled workflow is next due: the next run the scheduler claimed (it moves with the index
 * key, so an edit cannot move it back to a slot already sent), else its last run plus its interval,
 * else `NEVER_RAN`.
 */
export function dueAtOf(workflow: SchedulableWorkflow): string {
  if (workflow.cronNextRun) return workflow.cronNextRun;
  if (!workflow.cronLastRun) return NEVER_RAN;
  return new Date(Date.parse(workflow.cronLastRun) + intervalMinutesOf(workflow) * 60_000).toISOString();
}

/** One due slot as a tick claims it. */
export interface ClaimedSlot {
  /** When the run is due (ISO): the indexed due time, or the tick's time for one that never ran. */
  readonly dueAt: string;
  /** The slot after it (ISO): the due time plus the interval, never in the past. */
  readonly nextRun: string;
}

/**
 * The slot a tick at `now` claims from an indexed due time, and the slot after it. A workflow
 * that missed slots (scheduling was down, or it was switched off and on) runs once now and then
 * every interval from now: never a burst of back runs.
 */
export function claimSlot(indexedDueAt: string, intervalMinutes: number, now: Date): ClaimedSlot {
  const dueAt = indexedDueAt === NEVER_RAN ? now.toISOString() : indexedDueAt;
  const interval = intervalMinutes * 60_000;
  let next = Date.parse(dueAt) + interval;
  if (next <= now.getTime()) next = now.getTime() + interval;
  return { dueAt, nextRun: new Date(next).toISOString() };
}

/**
 * The SQS delay of a run due at `dueAt` sent at `now`: the seconds left until it is due, rounded
 * up so that the call never starts early, 0 for a run already due.
 */
export function dispatchDelaySeconds(dueAt: string, now: Date): number {
  const seconds = Math.ceil((Date.parse(dueAt) - now.getTime()) / 1000);
  return Math.min(Math.max(seconds, 0), MAX_SQS_DELAY_SECONDS);
}

/** The id of one dispatch: the same for every attempt of one due run (the webhook-id header). */
export const dispatchIdOf = (workflowId: string, dueAt: string) => `${workflowId}:${dueAt}`;
