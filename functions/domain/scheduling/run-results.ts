import * as z from 'zod';

import { MESSAGES } from '../../../shared/messages';
import {
  type SchedulerExecution,
  SchedulerExecution as SchedulerExecutionSchema,
  type SchedulerRun,
} from '../../../shared/schemas/scheduler';

/** The two results /admin/settings shows: the minute schedule's last run, and an admin's. */
export type RunKind = 'schedule' | 'manual';

/** The scheduler run a dispatched run reports its end to (the message's `run`). */
export interface RunReference {
  readonly kind: RunKind;
  /** The run's time: a report for an older run than the one kept is dropped. */
  readonly at: string;
  /** The due-index shard that listed the run: its report goes to that shard's item. */
  readonly shard?: number;
}

/** What a run that fans out over the due-index shards did, summed over the shards counted. */
export interface RunCounts {
  readonly checked: number;
  readonly queued: number;
  readonly failed: number;
  /** Left by a forced run: claimed by another run within the last minute, so already queued. */
  readonly alreadyQueued?: number;
  /** Shards whose claimer never answered (an admin's run only): their runs were not looked at. */
  readonly notRun?: number;
}

/**
 * What one claimer did with its shard: counts of the whole shard, and the executions it lists
 * (every failure, then queued runs, at most `CLAIMS.listedPerShard` in all).
 */
export const ShardResult = z.object({
  checked: z.number().int(),
  queued: z.number().int(),
  failed: z.number().int(),
  /** See `RunCounts.alreadyQueued`; absent from a claimer deployed before it. */
  alreadyQueued: z.number().int().default(0),
  executions: z.array(SchedulerExecutionSchema),
});
export type ShardResult = z.infer<typeof ShardResult>;

export const kindOf = (trigger: SchedulerRun['trigger']): RunKind =>
  trigger === 'schedule' ? 'schedule' : 'manual';

/**
 * The result of a run that fans out, from its counts and the executions its shards listed: the
 * spec's summary, counting every run (the executions are a few of them).
 */
export function fannedOutResult(
  trigger: SchedulerRun['trigger'],
  at: string,
  counts: RunCounts,
  executions: readonly SchedulerExecution[],
): SchedulerRun {
  const notRun = counts.notRun ?? 0;
  const error =
    notRun > 0
      ? MESSAGES.scheduler.shardsNotRun(notRun)
      : counts.failed > 0
        ? MESSAGES.scheduler.someQueueFailures(counts.failed)
        : undefined;
  return {
    trigger,
    success: error === undefined,
    timestamp: at,
    workflows_checked: counts.checked,
    workflows_processed: counts.queued + counts.failed,
    executions: [...executions],
    message:
      trigger === 'manual_force'
        ? MESSAGES.scheduler.forcedSummary(counts.queued, counts.checked, counts.alreadyQueued)
        : MESSAGES.scheduler.summary(counts.queued, counts.checked),
    ...(error === undefined ? {} : { error }),
  };
}
