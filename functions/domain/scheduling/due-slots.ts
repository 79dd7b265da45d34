import {
  DEFAULT_SCHEDULING_INTERVAL_MINUTES,
  SCHEDULING_INTERVAL_MINUTES,
  type WorkflowType,
} from '../../../shared/constants';

/* When a workflow is due, which slot a tick claims, and the dispatch of that slot. */

/** The due time of a workflow that never ran: before any real time, so it is due at once. */
export const NEVER_RAN = '0000-00-00T00:00:00.000Z';

/**
 * How far ahead a tick reads the due index. EventBridge Scheduler calls its target within the minute
 * it is due, so the tick after this one may come up to two minutes later: every run due before then
 * is claimed now and sent with a delay, and 15 s more leave the claimers time to send.
 */
export const TICK_REACH_MS = 135_000;

/**
 * How far ahead a claim takes a workflow's runs: every run due before then, in one write that moves
 * its due slot past them, each sent with a delay (SQS allows 15 minutes). A one-minute automation
 * is claimed about every eight minutes rather than every minute.
 */
export const CLAIM_HORIZON_MS = 10 * 60_000;

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
 * The workflow as a write that puts it in the schedule at `at` stores it: one that never ran, or
 * whose next run has passed (switched off for longer than its runs claimed ahead), is due from that
 * moment, stored as its next run; its first run is then sent at once (`ScheduleStarts`), and the
 * next ones follow every interval from it. A next run still ahead (switched off and on again within
 * minutes) is kept: the runs already queued for it go on, none is doubled.
 *
 * Stored once rather than taken by each claim from its own clock: two claims of one first run (a
 * tick retried, or overlapping the next one) then name the same due time, hence the same dispatch
 * id, and the firm's n8n is called once.
 */
export function withFirstDue<T extends SchedulableWorkflow>(workflow: T, at: string): T {
  if (!isScheduled(workflow)) return workflow;
  const due = dueAtOf(workflow);
  return due === NEVER_RAN || due < at ? { ...workflow, cronNextRun: at } : workflow;
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

/** The runs one claim takes, and the due slot it leaves for the next claim. */
export interface ClaimedSlots {
  /** When each run is due (ISO), oldest first: the indexed due time, then every interval. */
  readonly dueAts: readonly string[];
  /** The first run it does not take (ISO): the workflow's next due slot after the claim. */
  readonly nextRun: string;
}

/**
 * The runs a claim at `now` takes from an indexed due time: that one, then one every interval up to
 * `horizonEnd`. A workflow that missed runs (scheduling was down) runs once now for what it missed,
 * then every interval from now: never a burst of back runs. One that never ran (an item stored
 * before first due times were) is due now.
 */
export function claimSlots(
  indexedDueAt: string,
  intervalMinutes: number,
  now: Date,
  horizonEnd: Date,
): ClaimedSlots {
  const interval = intervalMinutes * 60_000;
  const first = indexedDueAt === NEVER_RAN ? now.getTime() : Date.parse(indexedDueAt);
  const dueAts = [first];
  let next = first + interval <= now.getTime() ? now.getTime() + interval : first + interval;
  while (next <= horizonEnd.getTime()) {
    dueAts.push(next);
    next += interval;
  }
  return { dueAts: dueAts.map((at) => new Date(at).toISOString()), nextRun: new Date(next).toISOString() };
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

/** The due time a dispatch id names (`dispatchIdOf`), checked by making the id again; null when it is not one. */
export function dueAtOfDispatch(workflowId: string, dispatchId: string): string | null {
  const dueAt = dispatchId.slice(workflowId.length + 1);
  return dispatchIdOf(workflowId, dueAt) === dispatchId && !Number.isNaN(Date.parse(dueAt)) ? dueAt : null;
}
