import { MESSAGES } from '../../shared/messages';
import type { ExecutionTrigger, SchedulerExecution, SchedulerRun } from '../../shared/schemas/scheduler';
import type { DispatchEntry, DispatchQueue } from '../adapters/dispatch-queue';
import {
  type ClaimedSlot,
  claimSlot,
  dispatchDelaySeconds,
  dispatchIdOf,
  intervalMinutesOf,
  LOOK_AHEAD_MS,
  NEVER_RAN,
} from '../data/due-index';
import { dueAtOfSortKey, dueSortKey } from '../data/keys';
import { type RunKind, SchedulerRunRepository } from '../data/scheduler-runs';
import type { Table } from '../data/table';
import { type DueWorkflow, WorkflowRunRepository } from '../data/workflow-runs';
import type { Clock, Logger } from '../runtime/dependencies';
import { chunks, mapWithConcurrency } from './concurrency';
import { METRIC, type Metrics, noMetrics } from './metrics';
import { ADMIN_RUN_RESULT, CLAIMS, WEBHOOK_QUEUE } from './scheduling-settings';

/** What starts a scheduler run: the minute schedule, or an admin (spec §7 workflow-scheduler). */
export type SchedulerTrigger = SchedulerRun['trigger'];

export interface SchedulerDependencies {
  readonly table: Table;
  readonly queue: DispatchQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Due slots found, claimed and enqueued per run. @default noMetrics */
  readonly metrics?: Metrics;
}

/**
 * The window of a forced run: a workflow claimed less than this ago (by the minute tick or another
 * forced run) is not dispatched again by a forced run, so concurrent 'Déclencher Maintenant'
 * clicks call each workflow once, with one webhook-id.
 */
export const FORCED_RUN_WINDOW_MS = 60_000;

/** Conditional writes in flight at once while claiming. */
const CLAIM_CONCURRENCY = 25;
/** SendMessageBatch calls in flight at once. */
const SEND_CONCURRENCY = 5;

/** What one claimer did with its shard: counts of the whole shard, and the executions it lists. */
export interface ShardResult {
  readonly checked: number;
  readonly queued: number;
  readonly failed: number;
  /** Every failure, then queued runs, at most `CLAIMS.listedPerShard` in all. */
  readonly executions: SchedulerExecution[];
}

/** A due workflow this run won: its slot is moved on and it must now be sent. */
interface Claim extends DueWorkflow {
  readonly slot: ClaimedSlot;
  readonly nextSortKey: string;
}

/**
 * The scheduler (spec §7 workflow-scheduler): finds the due workflows through the due index,
 * claims each with a conditional write and sends the claimed ones to the webhook queue.
 *
 * - Only due workflows are read: one range query per index shard, up to one tick ahead.
 * - Overlapping runs (the minute schedule and an admin, or a retried invocation) dispatch each due
 *   slot once: the claim moves the slot forward only if it is still the one that was read, so of
 *   two runs reading the same slot exactly one wins.
 * - A run falling due within the next minute is sent now with an SQS delay, so its call starts
 *   within seconds of its due time rather than up to a minute late.
 * - A send that fails gives the slot back, so the next tick dispatches it: nothing is lost.
 * - Forced ('manual_force'): every active, scheduled workflow runs now; its last run is cleared
 *   first (spec §4), in the same conditional write as the claim. Once per workflow per window:
 *   the claim is refused for a workflow claimed within the last minute, so of concurrent forced
 *   runs exactly one dispatches each workflow, and its dispatch id (workflow + the slot claimed)
 *   is the one webhook-id n8n sees.
 */
export class SchedulerService {
  private readonly runs: WorkflowRunRepository;
  private readonly lastResults: SchedulerRunRepository;

  constructor(private readonly deps: SchedulerDependencies) {
    this.runs = new WorkflowRunRepository(deps.table);
    this.lastResults = new SchedulerRunRepository(deps.table);
  }

  async run(trigger: SchedulerTrigger): Promise<SchedulerRun> {
    const now = this.deps.clock.now();
    const forced = trigger === 'manual_force';
    const dispatchTrigger: ExecutionTrigger = forced ? 'manual_force' : 'schedule';

    const candidates = await this.runs.due(forced ? null : new Date(now.getTime() + LOOK_AHEAD_MS));
    const claimed = await mapWithConcurrency(candidates, CLAIM_CONCURRENCY, (candidate) =>
      this.claim(candidate, now, forced),
    );
    const claims = claimed.filter((claim): claim is Claim => typeof claim === 'object');

    // A claim that failed (not lost to another run) leaves the slot due: the next tick retries it.
    const executions: SchedulerExecution[] = candidates
      .filter((_, index) => claimed[index] === 'failed')
      .map(({ workflow }) => ({
        workflowId: workflow.id,
        workflowName: workflow.name,
        status: 'failed',
        message: MESSAGES.scheduler.claimFailed,
      }));
    // The first claims after the failed ones are the ones the last result keeps (`lastResultOf`):
    // only they report their end to it. The reply lists the failed claims, then the claims in order.
    const listed = new Set(
      claims
        .slice(0, Math.max(0, ADMIN_RUN_RESULT.listed - executions.length))
        .map((claim) => claim.workflow.id),
    );
    const batches = chunks(claims, WEBHOOK_QUEUE.sendBatchSize);
    const outcomes = await mapWithConcurrency(batches, SEND_CONCURRENCY, (batch) =>
      this.send(batch, now, dispatchTrigger, forced, trigger === 'schedule' ? 'schedule' : 'manual', listed),
    );
    for (const outcome of outcomes) executions.push(...outcome);

    const queued = executions.filter((execution) => execution.status === 'queued').length;
    const failed = executions.length - queued;
    const metrics = this.deps.metrics ?? noMetrics;
    metrics.count(METRIC.dueFound, candidates.length);
    metrics.count(METRIC.dueClaimed, claims.length);
    metrics.count(METRIC.dueEnqueued, queued);
    const summary = forced ? MESSAGES.scheduler.forcedSummary : MESSAGES.scheduler.summary;
    this.deps.logger.info('Planificateur exécuté', {
      trigger,
      checked: candidates.length,
      dispatched: queued,
      failed,
    });
    return {
      trigger,
      success: failed === 0,
      timestamp: now.toISOString(),
      workflows_checked: candidates.length,
      executions,
      message: summary(queued, candidates.length),
      ...(failed > 0 ? { error: MESSAGES.scheduler.someQueueFailures(failed) } : {}),
    };
  }

  /**
   * One shard of the minute tick (the coordinator hands each shard to its own claimer): the due
   * slots of the shard up to one tick ahead are **queued first, then claimed**, so that no run is
   * lost between the two:
   *
   * - a send that fails leaves the slot unclaimed: the next tick reads it again;
   * - a claimer that stops after a send and before its claim (time-out, crash) leaves the slot
   *   due too: the next tick (or the invocation's retry) sends it again **under the same dispatch
   *   id** (workflow + due time, computed from the coordinator's tick time), and the worker does not
   *   call a run whose dispatch already reached its end; the `webhook-id` is the same for n8n.
   *
   * `tickAt` is the coordinator's time, the same for every shard and every retry of this tick, so
   * that a workflow that never ran gets the same due time (and dispatch id) on a retry.
   */
  async claimShard(shard: number, tickAt: Date): Promise<ShardResult> {
    const candidates = await this.runs.dueInShard(shard, new Date(tickAt.getTime() + LOOK_AHEAD_MS));
    const planned: Claim[] = candidates.map((candidate) => {
      const slot = claimSlot(
        dueAtOfSortKey(candidate.dueSortKey),
        intervalMinutesOf(candidate.workflow),
        tickAt,
      );
      return { ...candidate, slot, nextSortKey: dueSortKey(slot.nextRun, candidate.workflow.id) };
    });
    // Only the listed runs report their end to the last result: a handful per shard, not every run,
    // each to its shard's item, made ready for this tick before the first of them is queued.
    const listed = new Set(planned.slice(0, CLAIMS.listedPerShard).map((claim) => claim.workflow.id));
    const run = { kind: 'schedule' as const, at: tickAt.toISOString(), shard };
    if (listed.size > 0) {
      await this.lastResults.startShard(run.at, shard).catch((error: unknown) => {
        // The runs still go: only their ends miss the last result.
        this.deps.logger.warn('Résultat du lot non préparé', {
          shard,
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      });
    }
    const outcomes = await mapWithConcurrency(
      chunks(planned, WEBHOOK_QUEUE.sendBatchSize),
      CLAIMS.sendConcurrency,
      async (batch) => {
        const now = this.deps.clock.now();
        const { failed } = await this.deps.queue.sendBatch(
          batch.map(({ workflow, slot }) => ({
            message: {
              workflowId: workflow.id,
              dueAt: slot.dueAt,
              dispatchId: dispatchIdOf(workflow.id, slot.dueAt),
              trigger: 'schedule',
              ...(listed.has(workflow.id) ? { run } : {}),
            },
            delaySeconds: dispatchDelaySeconds(slot.dueAt, now),
            firm: workflow.lawyerEmail,
          })),
        );
        const refused = new Map(failed.map((failure) => [failure.index, failure.reason]));
        return Promise.all(
          batch.map(async (claim, index): Promise<{ execution: SchedulerExecution; claimed: boolean }> => {
            const base = { workflowId: claim.workflow.id, workflowName: claim.workflow.name };
            const reason = refused.get(index);
            if (reason !== undefined) {
              this.deps.logger.error('Envoi à la file refusé', { workflowId: claim.workflow.id, reason });
              return {
                execution: { ...base, status: 'failed', message: MESSAGES.scheduler.queueFailed },
                claimed: false,
              };
            }
            let claimed = false;
            try {
              // Lost to another run (a retried invocation, an admin's run): it sent this slot too.
              claimed = await this.runs.claim(
                claim,
                { sortKey: claim.nextSortKey, nextRun: claim.slot.nextRun },
                null,
              );
            } catch (error) {
              // Queued but not moved on: the next tick sends it again under the same dispatch id.
              this.deps.logger.warn('Créneau envoyé mais non réservé', {
                workflowId: claim.workflow.id,
                errorName: error instanceof Error ? error.name : 'inconnu',
              });
            }
            const delay = dispatchDelaySeconds(claim.slot.dueAt, now);
            return {
              execution: {
                ...base,
                status: 'queued',
                message: delay > 0 ? MESSAGES.scheduler.queuedWithDelay(delay) : MESSAGES.scheduler.queued,
              },
              claimed,
            };
          }),
        );
      },
    );
    const executions = outcomes.flat().map(({ execution }) => execution);
    const failures = executions.filter((execution) => execution.status === 'failed');
    const queued = executions.length - failures.length;
    const metrics = this.deps.metrics ?? noMetrics;
    metrics.count(METRIC.dueFound, candidates.length);
    metrics.count(METRIC.dueClaimed, outcomes.flat().filter(({ claimed }) => claimed).length);
    metrics.count(METRIC.dueEnqueued, queued);
    this.deps.logger.info('Lot du planificateur traité', {
      shard,
      checked: candidates.length,
      dispatched: queued,
      failed: failures.length,
    });
    return {
      checked: candidates.length,
      queued,
      failed: failures.length,
      executions: [
        ...failures,
        ...executions.filter(
          (execution) => listed.has(execution.workflowId) && execution.status === 'queued',
        ),
      ].slice(0, CLAIMS.listedPerShard),
    };
  }

  /**
   * Claims a due slot: moves the workflow's index key and next run to the slot after it, on
   * condition that the key is still the one read and the workflow still active and scheduled.
   * 'lost' when another run claimed it first or the workflow changed meanwhile; 'failed' when the
   * write failed otherwise (it is logged, and the other claims of the run go on).
   */
  private async claim(
    candidate: DueWorkflow,
    now: Date,
    forced: boolean,
  ): Promise<Claim | 'lost' | 'failed'> {
    const { workflow } = candidate;
    const indexedDueAt = forced ? NEVER_RAN : dueAtOfSortKey(candidate.dueSortKey);
    const slot = claimSlot(indexedDueAt, intervalMinutesOf(workflow), now);
    const nextSortKey = dueSortKey(slot.nextRun, workflow.id);
    try {
      const won = await this.runs.claim(
        candidate,
        { sortKey: nextSortKey, nextRun: slot.nextRun },
        forced ? { now, windowStart: new Date(now.getTime() - FORCED_RUN_WINDOW_MS) } : null,
      );
      return won ? { ...candidate, slot, nextSortKey } : 'lost';
    } catch (error) {
      this.deps.logger.error('Réservation du créneau impossible', {
        workflowId: workflow.id,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
      return 'failed';
    }
  }

  /** Sends one batch of claims; every claim SQS refused gets its slot back. */
  private async send(
    batch: readonly Claim[],
    now: Date,
    trigger: ExecutionTrigger,
    forced: boolean,
    runKind: RunKind,
    listed: ReadonlySet<string>,
  ): Promise<SchedulerExecution[]> {
    const entries: DispatchEntry[] = batch.map(({ workflow, slot }) => ({
      message: {
        workflowId: workflow.id,
        dueAt: slot.dueAt,
        dispatchId: dispatchIdOf(workflow.id, slot.dueAt),
        trigger,
        ...(listed.has(workflow.id) ? { run: { kind: runKind, at: now.toISOString() } } : {}),
      },
      delaySeconds: dispatchDelaySeconds(slot.dueAt, now),
      firm: workflow.lawyerEmail,
    }));
    const { failed } = await this.deps.queue.sendBatch(entries);
    const refused = new Map(failed.map((failure) => [failure.index, failure.reason]));
    return Promise.all(
      batch.map(async (claim, index): Promise<SchedulerExecution> => {
        const base = { workflowId: claim.workflow.id, workflowName: claim.workflow.name };
        const reason = refused.get(index);
        if (reason === undefined) {
          const delay = entries[index]?.delaySeconds ?? 0;
          return {
            ...base,
            status: 'queued',
            message: delay > 0 ? MESSAGES.scheduler.queuedWithDelay(delay) : MESSAGES.scheduler.queued,
          };
        }
        this.deps.logger.error('Envoi à la file refusé', { workflowId: claim.workflow.id, reason });
        await this.release(claim, forced);
        return { ...base, status: 'failed', message: MESSAGES.scheduler.queueFailed };
      }),
    );
  }

  /** Gives a claimed slot back (its send failed), unless the workflow changed since the claim. */
  private async release(claim: Claim, forced: boolean): Promise<void> {
    const { workflow } = claim;
    try {
      // False when it changed meanwhile (switched off, edited): its new state stands.
      await this.runs.release(claim, forced);
    } catch (error) {
      // The slot stays moved on: this one run is missed, the next slot runs; say so loudly.
      this.deps.logger.error('Créneau non rendu après un envoi refusé', {
        workflowId: workflow.id,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    }
  }
}

/**
 * What an admin's run keeps as its last result: its first `ADMIN_RUN_RESULT.listed` runs (the
 * failed claims, then the runs that report their end), the message still counting them all.
 */
export function lastResultOf(run: SchedulerRun): SchedulerRun {
  return { ...run, executions: run.executions.slice(0, ADMIN_RUN_RESULT.listed) };
}
