import { MESSAGES } from '../../../shared/messages';
import type { ExecutionTrigger, SchedulerExecution, SchedulerRun } from '../../../shared/schemas/scheduler';
import { chunks, mapWithConcurrency } from '../core/concurrency';
import { METRIC, type Metrics, noMetrics } from '../core/metrics';
import type { Clock, Logger } from '../core/ports';
import {
  type ClaimedSlot,
  claimSlot,
  dispatchDelaySeconds,
  dispatchIdOf,
  intervalMinutesOf,
  LOOK_AHEAD_MS,
  NEVER_RAN,
} from './due-slots';
import type { DispatchEntry, DispatchQueue, DueWorkflow, SchedulerRuns, WorkflowRuns } from './ports';
import { fannedOutResult, kindOf, type RunReference, type ShardResult } from './run-results';
import { CLAIMS, DUE_SHARDS, WEBHOOK_QUEUE } from './scheduling-settings';

/** What starts a scheduler run: the minute schedule, or an admin (spec §7 workflow-scheduler). */
export type SchedulerTrigger = SchedulerRun['trigger'];

export interface SchedulerDependencies {
  readonly runs: WorkflowRuns;
  readonly lastResults: Pick<SchedulerRuns, 'startShard'>;
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

/** A due workflow this run won: its slot is moved on and it must now be sent. */
interface Claim extends DueWorkflow {
  readonly slot: ClaimedSlot;
}

/**
 * The scheduler: reads only the due index, claims each due slot with a conditional write so that
 * overlapping runs send it once, sends runs due within the next minute now with a delay, and gives a
 * slot back when its send fails. Forced runs dispatch each workflow once per minute.
 */
export class SchedulerService {
  private readonly runs: WorkflowRuns;
  private readonly lastResults: Pick<SchedulerRuns, 'startShard'>;

  constructor(private readonly deps: SchedulerDependencies) {
    this.runs = deps.runs;
    this.lastResults = deps.lastResults;
  }

  /**
   * A whole run in this process, every due-index shard at once, summed as the coordinator of an
   * admin's run sums its claimers (`functions/domain/scheduling/run-scheduler.ts`): each shard as its claimer
   * runs it, the minute tick's way (`claimShard`) for 'schedule', an admin's (`runShard`) for the
   * others. The tests and the benches drive the scheduler through it.
   */
  async run(trigger: SchedulerTrigger): Promise<SchedulerRun> {
    const at = this.deps.clock.now();
    const shards = await Promise.all(
      Array.from({ length: DUE_SHARDS }, (_, shard) =>
        trigger === 'schedule' ? this.claimShard(shard, at) : this.runShard(shard, at, trigger),
      ),
    );
    return combinedResult(trigger, at.toISOString(), shards);
  }

  /**
   * One shard of an admin's run, claimed first then queued: the minute tick may be claiming the same
   * slots, and a run sends only what it won. A failed claim leaves the slot due for the next tick.
   */
  async runShard(shard: number, at: Date, trigger: SchedulerTrigger): Promise<ShardResult> {
    const forced = trigger === 'manual_force';
    const dispatchTrigger: ExecutionTrigger = forced ? 'manual_force' : 'schedule';
    const read = await this.runs.dueInShard(shard, forced ? null : new Date(at.getTime() + LOOK_AHEAD_MS));
    // Forced, what another run claimed within the window is queued already: its claim would be
    // refused, so it is not tried, and the summary counts it rather than reading '0 mise en file'.
    const windowStart = forced ? new Date(at.getTime() - FORCED_RUN_WINDOW_MS) : null;
    const since = windowStart?.toISOString();
    const candidates =
      since === undefined ? read : read.filter(({ claimedAt }) => claimedAt === null || claimedAt <= since);
    const alreadyQueued = read.length - candidates.length;
    const claimed = await mapWithConcurrency(candidates, CLAIM_CONCURRENCY, (candidate) =>
      this.claim(candidate, at, windowStart),
    );
    const claims = claimed.filter((claim): claim is Claim => typeof claim === 'object');

    const failures: SchedulerExecution[] = candidates
      .filter((_, index) => claimed[index] === 'failed')
      .map(({ workflow }) => ({
        workflowId: workflow.id,
        workflowName: workflow.name,
        status: 'failed',
        message: MESSAGES.scheduler.claimFailed,
      }));
    const listed = new Set(
      claims.slice(0, Math.max(0, CLAIMS.listedPerShard - failures.length)).map((claim) => claim.workflow.id),
    );
    const run: RunReference = { kind: kindOf(trigger), at: at.toISOString(), shard };
    if (listed.size > 0) await this.startListing(run, shard);
    const sent = (
      await mapWithConcurrency(chunks(claims, WEBHOOK_QUEUE.sendBatchSize), SEND_CONCURRENCY, (batch) =>
        this.send(batch, at, dispatchTrigger, forced, run, listed),
      )
    ).flat();
    const result = shardResult(read.length, [...failures, ...sent], listed, alreadyQueued);
    const metrics = this.deps.metrics ?? noMetrics;
    metrics.count(METRIC.dueFound, read.length);
    metrics.count(METRIC.dueClaimed, claims.length);
    metrics.count(METRIC.dueEnqueued, result.queued);
    this.deps.logger.info('Lot du planificateur exécuté', {
      trigger,
      shard,
      checked: result.checked,
      dispatched: result.queued,
      failed: result.failed,
      alreadyQueued,
    });
    return result;
  }

  /** Makes a shard's item of the last result ready before its first listed run is queued. */
  private async startListing(run: RunReference, shard: number): Promise<void> {
    await this.lastResults.startShard(run.kind, run.at, shard).catch((error: unknown) => {
      // The runs still go: only their ends miss the last result.
      this.deps.logger.warn('Résultat du lot non préparé', {
        shard,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
  }

  /**
   * One shard of the minute tick, queued first then claimed, so no run is lost between the two: a run
   * sent but not claimed is sent again under the same dispatch id (from `tickAt`, the coordinator's
   * time), and the worker does not call a dispatch that already ended.
   */
  async claimShard(shard: number, tickAt: Date): Promise<ShardResult> {
    const candidates = await this.runs.dueInShard(shard, new Date(tickAt.getTime() + LOOK_AHEAD_MS));
    const planned: Claim[] = candidates.map((candidate) => {
      const slot = claimSlot(candidate.dueAt, intervalMinutesOf(candidate.workflow), tickAt);
      return { ...candidate, slot };
    });
    // Only the listed runs report their end to the last result: a handful per shard, not every run,
    // each to its shard's item, made ready for this tick before the first of them is queued.
    const listed = new Set(planned.slice(0, CLAIMS.listedPerShard).map((claim) => claim.workflow.id));
    const run: RunReference = { kind: 'schedule', at: tickAt.toISOString(), shard };
    if (listed.size > 0) await this.startListing(run, shard);
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
              claimed = await this.runs.claim(claim, claim.slot.nextRun, now, null);
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
    const result = shardResult(
      candidates.length,
      outcomes.flat().map(({ execution }) => execution),
      listed,
    );
    const metrics = this.deps.metrics ?? noMetrics;
    metrics.count(METRIC.dueFound, candidates.length);
    metrics.count(METRIC.dueClaimed, outcomes.flat().filter(({ claimed }) => claimed).length);
    metrics.count(METRIC.dueEnqueued, result.queued);
    this.deps.logger.debug('Lot du planificateur traité', {
      shard,
      checked: result.checked,
      dispatched: result.queued,
      failed: result.failed,
    });
    return result;
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
    /** A forced run's window: a workflow claimed since then is left. Null when not forced. */
    windowStart: Date | null,
  ): Promise<Claim | 'lost' | 'failed'> {
    const { workflow } = candidate;
    const indexedDueAt = windowStart ? NEVER_RAN : candidate.dueAt;
    const slot = claimSlot(indexedDueAt, intervalMinutesOf(workflow), now);
    try {
      const won = await this.runs.claim(candidate, slot.nextRun, now, windowStart && { windowStart });
      return won ? { ...candidate, slot } : 'lost';
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
    run: RunReference,
    listed: ReadonlySet<string>,
  ): Promise<SchedulerExecution[]> {
    const entries: DispatchEntry[] = batch.map(({ workflow, slot }) => ({
      message: {
        workflowId: workflow.id,
        dueAt: slot.dueAt,
        dispatchId: dispatchIdOf(workflow.id, slot.dueAt),
        trigger,
        ...(listed.has(workflow.id) ? { run } : {}),
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
      await this.runs.release({ workflow, dueAt: claim.dueAt, nextRun: claim.slot.nextRun }, forced);
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
 * A shard's result from its executions (each failed or queued): every run counted, the failures
 * listed first, then the queued runs that report their end (`listed`), `CLAIMS.listedPerShard` at most.
 */
function shardResult(
  checked: number,
  executions: readonly SchedulerExecution[],
  listed: ReadonlySet<string>,
  alreadyQueued = 0,
): ShardResult {
  const failures = executions.filter((execution) => execution.status === 'failed');
  return {
    checked,
    queued: executions.length - failures.length,
    failed: failures.length,
    alreadyQueued,
    executions: [
      ...failures,
      ...executions.filter((execution) => listed.has(execution.workflowId) && execution.status === 'queued'),
    ].slice(0, CLAIMS.listedPerShard),
  };
}

/**
 * A run's result from its shards' (the claimers' answers): the counts of every run, the executions
 * each shard listed; `notRun` shards never answered.
 */
export function combinedResult(
  trigger: SchedulerTrigger,
  at: string,
  shards: readonly ShardResult[],
  notRun = 0,
): SchedulerRun {
  const sum = (count: (shard: ShardResult) => number) =>
    shards.reduce((total, shard) => total + count(shard), 0);
  return fannedOutResult(
    trigger,
    at,
    {
      checked: sum((shard) => shard.checked),
      queued: sum((shard) => shard.queued),
      failed: sum((shard) => shard.failed),
      alreadyQueued: sum((shard) => shard.alreadyQueued),
      notRun,
    },
    shards.flatMap((shard) => shard.executions),
  );
}
