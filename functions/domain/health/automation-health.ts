import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import {
  type DeliveryHour,
  type HealthState,
  type HealthWindow,
  PAUSE_AFTER_FAILURES,
  type WorkflowHealth,
} from '../../../shared/schemas/health';
import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import type { Clock, Logger } from '../core/ports';
import type { JoinedWritesOf, WorkflowRecord } from '../directory/ports';
import type { CallEnd, CallEndings, EndedCall } from '../scheduling/ports';
import type { HealthAlerts } from './health-alerts';
import type {
  HealthReads,
  HealthSummaryRecord,
  HealthWrites,
  HourCount,
  HourCounters,
  HourIncrements,
  RunEndResult,
} from './ports';

/**
 * Automation health: the rules. What a run's end adds to the counters, what state a workflow is in,
 * when scheduling is paused. Kept incrementally as runs end (`data/health/health-writes.ts`);
 * nothing here reads the execution history.
 */

// ---------------------------------------------------------------------------- state

/**
 * The state of a workflow, from its summary and whether it is scheduled now:
 * 1. 'paused' ('Suspendue'): the automatic pause stopped its scheduling and it is still off;
 * 2. 'failing' ('En échec'): its last two runs or more ended in failure;
 * 3. 'degraded' ('Dégradée'): its last run ended in failure (one only), or its last success
 *    needed retries;
 * 4. 'healthy' ('En bonne santé'): its last run succeeded at once, or it has not run.
 * So the first success after 'Reprendre' brings it back to 'En bonne santé'; the 24-hour and
 * 7-day figures stay beside the state, for the longer view.
 */
export function healthStateOf(
  summary: Pick<HealthSummaryRecord, 'consecutiveFailures' | 'pausedAt' | 'lastSuccessRetried'>,
  scheduled: boolean,
): HealthState {
  if (summary.pausedAt !== null && !scheduled) return 'paused';
  if (summary.consecutiveFailures >= 2) return 'failing';
  if (summary.consecutiveFailures === 1 || summary.lastSuccessRetried) return 'degraded';
  return 'healthy';
}

/** A workflow's health as the API shows it. */
export function toWorkflowHealth(
  summary: HealthSummaryRecord,
  workflow: Pick<WorkflowRecord, 'active' | 'cronEnabled'>,
): WorkflowHealth {
  const state = healthStateOf(summary, workflow.active && workflow.cronEnabled);
  const paused = state === 'paused';
  return {
    workflowId: summary.workflowId,
    state,
    lastSuccessAt: summary.lastSuccessAt,
    lastFailureAt: summary.lastFailureAt,
    lastFailureMessage: summary.lastFailureMessage,
    lastFailureStatus: summary.lastFailureStatus,
    consecutiveFailures: summary.consecutiveFailures,
    pausedAt: paused ? summary.pausedAt : null,
    pauseReason: paused ? summary.pauseReason : null,
  };
}

// ---------------------------------------------------------------------------- histograms

/**
 * Upper bounds (ms) of the duration buckets of the calls: a call's duration adds one to the first
 * bucket whose bound it does not pass. The last bound is the delivery's time-out.
 */
export const DURATION_BOUNDS_MS = [100, 250, 500, 1_000, 2_500, 5_000, 10_000] as const;
/** Upper bounds (ms) of the dispatch-lag buckets (due time to the first attempt's start). */
export const LAG_BOUNDS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000] as const;

/** The bucket index of a value; values past the last bound go in one more bucket. */
export function bucketOf(value: number, bounds: readonly number[]): number {
  const index = bounds.findIndex((bound) => value <= bound);
  return index === -1 ? bounds.length : index;
}

/**
 * The 95th percentile of a histogram, as the upper bound of its bucket (the last bound for the
 * overflow bucket: "at least"); null when empty.
 */
export function p95Of(counts: readonly number[], bounds: readonly number[]): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * 0.95);
  let seen = 0;
  for (const [index, count] of counts.entries()) {
    seen += count;
    if (seen >= rank) return bounds[Math.min(index, bounds.length - 1)] ?? null;
  }
  return bounds[bounds.length - 1] ?? null;
}

const durationAttribute = (index: number) => `duration${index}`;
const lagAttribute = (index: number) => `lag${index}`;

/** A histogram read back from summed counters. */
export function histogram(
  counts: Readonly<Record<string, number>>,
  bounds: readonly number[],
  attribute: (index: number) => string,
) {
  return Array.from({ length: bounds.length + 1 }, (_, index) => counts[attribute(index)] ?? 0);
}

/** Counters summed over several hours. */
export function sum(hours: readonly HourCounters[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const { counts } of hours) {
    for (const [name, value] of Object.entries(counts)) total[name] = (total[name] ?? 0) + value;
  }
  return total;
}

// ---------------------------------------------------------------------------- counters

/** The runs whose consecutive failures pause scheduling: the due ones, not a person's click. */
export const DUE_TRIGGERS: readonly ExecutionTrigger[] = ['schedule', 'manual_force', 'redrive'];

/** What one call adds to its workflow's hour: its outcome and its duration's bucket. */
export function workflowHourIncrements(call: EndedCall): HourIncrements {
  return {
    [call.outcome]: 1,
    [durationAttribute(bucketOf(call.durationMs, DURATION_BOUNDS_MS))]: 1,
  };
}

/**
 * What one call adds to a deliveries hour (everyone's, a lawyer's): its outcome and, for the first
 * attempt of a scheduled run, the lag between its due time and its start.
 */
export function deliveryHourIncrements(call: EndedCall): HourIncrements {
  const lagMs =
    call.dueAt !== null && call.attempt === 1 && call.trigger === 'schedule'
      ? Math.max(0, Date.parse(call.startedAt) - Date.parse(call.dueAt))
      : null;
  return {
    [call.outcome]: 1,
    ...(lagMs === null ? {} : { [lagAttribute(bucketOf(lagMs, LAG_BOUNDS_MS))]: 1 }),
  };
}

/**
 * The figures of one window of a workflow's hours. A run delivered whose workflow then reported a
 * failure is a failure: it leaves the successes for `processingFailed`.
 */
export function windowOf(hours: readonly HourCounters[], fromHour: string): HealthWindow {
  const total = sum(hours.filter((hour) => hour.hour >= fromHour));
  const delivered = total.succeeded ?? 0;
  const processingFailed = Math.min(delivered, total.reportedFailed ?? 0);
  const succeeded = delivered - processingFailed;
  const runs = delivered + (total.failed ?? 0) + (total.deadLettered ?? 0);
  return {
    runs,
    succeeded,
    processingFailed,
    successRate: runs === 0 ? null : succeeded / runs,
    p95DurationMs: p95Of(histogram(total, DURATION_BOUNDS_MS, durationAttribute), DURATION_BOUNDS_MS),
  };
}

/** The hour of a time, as counters name it: `yyyy-mm-ddThh` (UTC). */
export const healthHourOf = (at: Date) => at.toISOString().slice(0, 13);

/** The hour `hoursBack` hours before `now`'s, as counter items name it. */
export const hourBefore = (now: Date, hoursBack: number) =>
  healthHourOf(new Date(now.getTime() - hoursBack * 3_600_000));

/**
 * The last 24 hours of deliveries, oldest first, every hour present (zeros when idle); an hour
 * read from several shards is their sum.
 */
export function deliveryHoursOf(hours: readonly HourCounters[], now: Date): DeliveryHour[] {
  return Array.from({ length: 24 }, (_, index) => {
    const hour = hourBefore(now, 23 - index);
    const counts = sum(hours.filter((each) => each.hour === hour));
    return {
      hour: `${hour}:00:00.000Z`,
      succeeded: counts.succeeded ?? 0,
      retried: counts.retried ?? 0,
      failed: counts.failed ?? 0,
      deadLettered: counts.deadLettered ?? 0,
      reportedFailed: counts.reportedFailed ?? 0,
      lagP95Ms: p95Of(histogram(counts, LAG_BOUNDS_MS, lagAttribute), LAG_BOUNDS_MS),
    };
  });
}

// ---------------------------------------------------------------------------- the pause

/** The reason of an automatic pause, with the n8n hint after a 404. */
export function pauseReasonOf(failures: number, message: string, httpStatus: number | null): string {
  const reason = HEALTH_MESSAGES.pauseReason(failures, message);
  return httpStatus === 404 ? `${reason}. ${HEALTH_MESSAGES.inactiveHint}` : reason;
}

/** The pause threshold in force: the admin's, else the default. */
export const pauseThresholdOf = (stored: number | null) => stored ?? PAUSE_AFTER_FAILURES.default;

/**
 * Turns a workflow's scheduling off or on through the scheduling service, with `alsoWrite` in its
 * transaction (the pause record); false when it did not flip.
 */
export type SchedulingSwitch = (
  workflowId: string,
  enabled: boolean,
  alsoWrite?: JoinedWritesOf<WorkflowRecord>,
) => Promise<boolean>;

export interface AutomationHealthDependencies {
  readonly health: HealthWrites;
  /** The pause threshold of /admin/settings, read when a failure may reach it. */
  readonly settings: Pick<HealthReads, 'settings'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly switchScheduling: SchedulingSwitch;
  /** Sends the pause alerts; absent where no mailer is declared (then the pause is only logged). */
  readonly alerts?: HealthAlerts;
}

/** What a call adds to its lawyer's hour (his own dashboard): as to everyone's. */
export const ownerCountOf = (call: EndedCall): HourCount => ({
  hour: healthHourOf(new Date(call.startedAt)),
  increments: deliveryHourIncrements(call),
});

/**
 * What calls' ends do to their workflows' health: each workflow's run state (its last run, its
 * streak, its counts of the hour) in one write; everyone's counts once per hour of the batch; each
 * lawyer's, unless the caller adds them where it gives his firm's call slots back; then, for a run
 * that failed for good, its details, the failing set and, when a due run's failure makes the streak
 * reach the threshold, the automatic pause and its alerts; for a success that ends a streak, its way
 * out of the failing set. A connection test is never counted, a retried attempt counts but ends
 * no run.
 */
export class AutomationHealth implements CallEndings {
  constructor(private readonly deps: AutomationHealthDependencies) {}

  async callsEnded(ends: readonly CallEnd[]): Promise<void> {
    const counted = ends.filter(({ call }) => call.trigger !== 'test');
    if (counted.length === 0) return;
    const everyone = new Map<string, Record<string, number>>();
    for (const { call } of counted) add(everyone, ownerCountOf(call));
    const [results] = await Promise.all([
      Promise.all(counted.map((end) => this.runEnded(end))),
      // One write per hour of the batch, in the shard its first call falls in.
      ...[...everyone].map(([hour, increments]) =>
        this.deps.health.addToEveryonesHour(counted[0]?.workflow.id ?? hour, { hour, increments }),
      ),
      ...counted
        .filter(({ ownerCounted }) => !ownerCounted)
        .map(({ workflow, call }) =>
          this.deps.health.addToOwnerHour(workflow.lawyerEmail, ownerCountOf(call)),
        ),
    ]);
    await Promise.all(
      counted.map((end, index) => {
        const result = results[index];
        return result?.exists ? this.followUp(end, result) : undefined;
      }),
    );
  }

  /** The run state of one call's end, on its workflow. */
  private runEnded({ workflow, call }: CallEnd): Promise<RunEndResult> {
    return this.deps.health.recordRunEnd({
      workflowId: workflow.id,
      startedAt: call.startedAt,
      setsLastRun: true,
      streak: call.outcome === 'succeeded' ? 'success' : call.outcome === 'retried' ? null : 'failure',
      retried: call.attempt > 1,
      count: { hour: healthHourOf(new Date(call.startedAt)), increments: workflowHourIncrements(call) },
    });
  }

  /**
   * After a run's end: a success that ended a streak leaves the failing set (and the pause record,
   * scheduled again); a failure records its details and its place in the failing set, and may pause.
   * A workflow deleted during its call had nothing written and gets none of this.
   */
  private async followUp({ workflow, call }: CallEnd, result: RunEndResult): Promise<void> {
    const { health } = this.deps;
    if (call.outcome === 'retried') return;
    if (call.outcome === 'succeeded') {
      if (result.streakBefore === 0) return;
      await Promise.all([
        health.clearFailing(workflow.id),
        workflow.active && workflow.cronEnabled ? health.clearPause(workflow.id) : undefined,
      ]);
      return;
    }
    await failureFollowUp(this.deps, workflow, {
      trigger: call.trigger,
      at: call.startedAt,
      message: call.message,
      httpStatus: call.httpStatus,
      failures: result.streakAfter,
    });
  }
}

/** A failure as the health keeps it: a call's that failed for good, or a run's reported one. */
export interface RecordedFailure {
  readonly trigger: ExecutionTrigger;
  readonly at: string;
  readonly message: string;
  readonly httpStatus: number | null;
  /** The failure streak it leaves. */
  readonly failures: number;
}

/**
 * What a failure does after its streak is written: its details, its place in the failing set and,
 * when a due run's failure makes the streak reach the threshold, the automatic pause and its alerts.
 */
export async function failureFollowUp(
  deps: AutomationHealthDependencies,
  workflow: WorkflowRecord,
  failure: RecordedFailure,
): Promise<void> {
  const { health } = deps;
  await Promise.all([
    health.recordFailure(workflow.id, {
      at: failure.at,
      message: failure.message,
      httpStatus: failure.httpStatus,
    }),
    health.markFailing({
      workflowId: workflow.id,
      workflowName: workflow.name,
      consecutiveFailures: failure.failures,
      lastFailureAt: failure.at,
      lastFailureMessage: failure.message,
    }),
  ]);
  if (!DUE_TRIGGERS.includes(failure.trigger) || !workflow.cronEnabled) return;
  const threshold = pauseThresholdOf((await deps.settings.settings()).pauseAfterFailures);
  if (failure.failures < threshold) return;
  await pause(deps, workflow, failure);
}

/**
 * Pauses scheduling: the scheduling switch flips only from on, conditionally, so of two runs
 * reaching the threshold at once one pauses and alerts; the other finds it off.
 */
async function pause(
  deps: AutomationHealthDependencies,
  workflow: WorkflowRecord,
  failure: RecordedFailure,
): Promise<void> {
  const reason = pauseReasonOf(failure.failures, failure.message, failure.httpStatus);
  const at = deps.clock.now().toISOString();
  // The pause record (and the paused list's entry) with the switch: both, or neither.
  const paused = await deps.switchScheduling(workflow.id, false, () => [
    { automaticPause: { workflowId: workflow.id, at, reason } },
  ]);
  if (!paused) return;
  deps.logger.warn('Automatisation suspendue après des échecs consécutifs', {
    workflowId: workflow.id,
    failures: failure.failures,
    httpStatus: failure.httpStatus,
  });
  await deps.alerts?.paused(workflow, {
    failures: failure.failures,
    lastMessage: failure.message,
    httpStatus: failure.httpStatus,
  });
}

/** Adds a count to its hour's sums. */
function add(sums: Map<string, Record<string, number>>, count: HourCount): void {
  const sum = sums.get(count.hour) ?? {};
  for (const [name, amount] of Object.entries(count.increments)) sum[name] = (sum[name] ?? 0) + amount;
  sums.set(count.hour, sum);
}
