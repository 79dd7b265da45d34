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
 * The workflow as a write that puts it in the schedule at `at` stores it: one that never ran and
 * has no next run yet is due from that moment, stored as its next run.
 *
 * Stored once rather than taken by each claim from its own clock: two claims of one first run (a
 * tick retried, or overlapping the next one) then name the same due time, hence the same dispatch
 * id, and the firm's n8n is called once. A due time taken at each claim made two dispatches of one
 * first run, both called.
 */
export function withFirstDue<T extends SchedulableWorkflow>(workflow: T, at: string): T {
  return isScheduled(workflow) && !workflow.cronNextRun && !workflow.cronLastRun
    ? { ...workflow, cronNextRun: at }
    : workflow;
}

/**
 * When a scheduled workflow is next due (ISO), or `NEVER_RAN` when it never ran and has no next run
 * (an item stored before first due times were, see {@link withFirstDue}).
 *
 * The next run the scheduler claimed (`cronNextRun`) is the truth when there is one: it moves
 * forward atomically with the index key when a slot is claimed, so rewriting an item (an admin
 * renaming it while a run is on its way) recomputes the same key and cannot move it back to a
 * slot already dispatched. A changed interval therefore applies from the next run on. Without a
 * claimed next run, the interval counts from the last run (spec: due when its interval has passed
 * since its last run, or it never ran).
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
