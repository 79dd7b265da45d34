import { MESSAGES } from '../../../shared/messages';
import type { SchedulerExecution, SchedulerRun } from '../../../shared/schemas/scheduler';
import { mapWithConcurrency } from '../core/concurrency';
import { METRIC, type Metrics, noMetrics } from '../core/metrics';
import type { Clock, Logger } from '../core/ports';
import { TICK_REACH_MS } from './due-slots';
import type { DispatchQueue, DueWorkflow, SchedulerRuns, WorkflowRuns } from './ports';
import { type Plan, planOf, RunDispatch, type Sent } from './run-dispatch';
import { fannedOutResult, kindOf, type RunReference, type ShardResult } from './run-results';
import { CLAIMS, DUE_SHARDS } from './scheduling-settings';

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

/**
 * The scheduler (spec §7 workflow-scheduler): finds the due workflows through the due index,
 * claims their runs with a conditional write and sends them to the webhook queue.
 *
 * - Only due workflows are read: one range query per index shard, up to `TICK_REACH_MS` ahead, so
 *   that every run due before the next tick can come is sent by this one, delayed to its due time.
 * - A claim takes a workflow's runs up to `CLAIM_HORIZON_MS` ahead in one write, each its own
 *   message delayed to its due second: a run's share of the claim's write is a fraction of one.
 * - Overlapping runs (the minute schedule and an admin, or a retried invocation) dispatch each due
 *   slot under one dispatch id: the claim moves the slot forward only if it is still the one read.
 * - A send that fails leaves (or gives back) the slot, so the next tick sends it: nothing is lost.
 * - Forced ('manual_force'): every active, scheduled workflow runs once now, its last run cleared
 *   first (spec §4), its schedule left as it is. Once per workflow per window: the claim is refused
 *   for a workflow claimed within the last minute, so of concurrent forced runs exactly one
 *   dispatches each workflow. The summary counts those left, queued already.
 */
export class SchedulerService {
  private readonly runs: WorkflowRuns;
  private readonly dispatch: RunDispatch;

  constructor(private readonly deps: SchedulerDependencies) {
    this.runs = deps.runs;
    this.dispatch = new RunDispatch(deps);
  }

  /**
   * A whole run in this process, every due-index shard at once, summed as the coordinator of an
   * admin's run sums its claimers (`run-scheduler.ts`): each shard as its claimer runs it, the
   * minute tick's way (`claimShard`) for 'schedule', an admin's (`runShard`) for the others. The
   * tests and the benches drive the scheduler through it.
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
   * One shard of the minute tick (the coordinator hands each shard to its own claimer): the runs due
   * up to `TICK_REACH_MS` ahead are **queued first, then claimed**, so that none is lost between the
   * two. A send that fails leaves the slot unclaimed for the next tick; a claimer that stops after a
   * send and before its claim leaves it due too, and the next tick sends it again under the same
   * dispatch ids (the worker does not call a run twice). `tickAt` is the coordinator's time, the same
   * for every shard and every retry of this tick.
   */
  async claimShard(shard: number, tickAt: Date): Promise<ShardResult> {
    const read = await this.runs.dueInShard(shard, new Date(tickAt.getTime() + TICK_REACH_MS));
    const plans = read.map((candidate) => planOf(candidate, tickAt));
    const run: RunReference = { kind: 'schedule', at: tickAt.toISOString(), shard };
    const listed = await this.listed(
      run,
      plans.map(({ read }) => read.workflow.id),
    );
    const now = this.deps.clock.now();
    const sent = await this.dispatch.send(plans, now, { trigger: 'schedule', run, listed });
    const claims = await mapWithConcurrency(plans, CLAIM_CONCURRENCY, (plan, index) =>
      sent[index]?.queued ? this.dispatch.claimSent(plan, now) : Promise.resolve(false),
    );
    const result = shardResult(read.length, executionsOf(plans, sent), listed);
    this.report('schedule', shard, result, claims.filter(Boolean).length);
    return result;
  }

  /**
   * One due-index shard of an admin's run ('Déclencher Maintenant', one claimer per shard),
   * **claimed first, then queued**: the minute tick may be claiming the same slots meanwhile, and a
   * run sends only what it won. Not forced, the runs due up to `TICK_REACH_MS` ahead, claimed as the
   * tick claims them; forced, one run now of every active and scheduled workflow (`runForced`). A
   * claim that failed (not lost to another run) leaves the slot due: the next tick retries it. The
   * first claims report their end to the run's last result (this shard's item), at most
   * `CLAIMS.listedPerShard` with the failures.
   */
  async runShard(shard: number, at: Date, trigger: SchedulerTrigger): Promise<ShardResult> {
    if (trigger === 'manual_force') return this.runForced(shard, at);
    const read = await this.runs.dueInShard(shard, new Date(at.getTime() + TICK_REACH_MS));
    const plans = read.map((candidate) => planOf(candidate, at));
    const claimed = await mapWithConcurrency(plans, CLAIM_CONCURRENCY, (plan) =>
      this.claimFirst(() => this.runs.claim(plan.read, plan.slots.nextRun, at), plan.read),
    );
    const won = plans.filter((_, index) => claimed[index] === 'won');
    const failures = claimFailures(plans.filter((_, index) => claimed[index] === 'failed'));
    const run: RunReference = { kind: kindOf(trigger), at: at.toISOString(), shard };
    const listed = await this.listed(
      run,
      won.slice(0, Math.max(0, CLAIMS.listedPerShard - failures.length)).map(({ read }) => read.workflow.id),
    );
    const sent = await this.dispatch.send(won, this.deps.clock.now(), { trigger: 'schedule', run, listed });
    await Promise.all(
      won.map((plan, index) =>
        sent[index]?.queued
          ? undefined
          : this.giveBack(plan.read, () => this.runs.release(plan.read, plan.slots.nextRun)),
      ),
    );
    const result = shardResult(read.length, [...failures, ...executionsOf(won, sent)], listed);
    this.report(trigger, shard, result, won.length);
    return result;
  }

  /**
   * A forced run of one shard: every active, scheduled workflow runs once now, under the dispatch id
   * of the run's time (the same for every shard and retry of the run), its last run cleared (spec
   * §4) and its schedule left as it is. What another run claimed within the window is queued
   * already: its claim would be refused, so it is not tried, and the summary counts it rather than
   * reading '0 mise en file'.
   */
  private async runForced(shard: number, at: Date): Promise<ShardResult> {
    const read = await this.runs.dueInShard(shard, null);
    const windowStart = new Date(at.getTime() - FORCED_RUN_WINDOW_MS);
    const since = windowStart.toISOString();
    const candidates = read.filter(({ claimedAt }) => claimedAt === null || claimedAt <= since);
    const claimed = await mapWithConcurrency(candidates, CLAIM_CONCURRENCY, (candidate) =>
      this.claimFirst(() => this.runs.claimForced(candidate, at, windowStart), candidate),
    );
    const plans: Plan[] = candidates
      .filter((_, index) => claimed[index] === 'won')
      .map((candidate) => ({
        read: candidate,
        slots: { dueAts: [at.toISOString()], nextRun: at.toISOString() },
      }));
    const failures = claimFailures(
      candidates.filter((_, index) => claimed[index] === 'failed').map((candidate) => ({ read: candidate })),
    );
    const run: RunReference = { kind: 'manual', at: at.toISOString(), shard };
    const listed = await this.listed(
      run,
      plans
        .slice(0, Math.max(0, CLAIMS.listedPerShard - failures.length))
        .map(({ read }) => read.workflow.id),
    );
    const sent = await this.dispatch.send(plans, this.deps.clock.now(), {
      trigger: 'manual_force',
      run,
      listed,
    });
    await Promise.all(
      plans.map((plan, index) =>
        sent[index]?.queued
          ? undefined
          : this.giveBack(plan.read, () => this.runs.releaseForced(plan.read, at)),
      ),
    );
    const result = shardResult(
      read.length,
      [...failures, ...executionsOf(plans, sent)],
      listed,
      read.length - candidates.length,
    );
    this.report('manual_force', shard, result, plans.length);
    return result;
  }

  /** The workflows whose runs report their end to this run's result, its shard item made ready first. */
  private async listed(run: RunReference, workflowIds: readonly string[]): Promise<ReadonlySet<string>> {
    const listed = new Set(workflowIds.slice(0, CLAIMS.listedPerShard));
    if (listed.size === 0 || run.shard === undefined) return listed;
    const shard = run.shard;
    await this.deps.lastResults.startShard(run.kind, run.at, shard).catch((error: unknown) => {
      // The runs still go: only their ends miss the last result.
      this.deps.logger.warn('Résultat du lot non préparé', {
        shard,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
    return listed;
  }

  /**
   * A claim made before sending: 'lost' when another run claimed the workflow first or it changed
   * meanwhile; 'failed' when the write failed otherwise (logged, the other claims go on).
   */
  private async claimFirst(
    claim: () => Promise<boolean>,
    read: DueWorkflow,
  ): Promise<'won' | 'lost' | 'failed'> {
    try {
      return (await claim()) ? 'won' : 'lost';
    } catch (error) {
      this.deps.logger.error('Réservation du créneau impossible', {
        workflowId: read.workflow.id,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
      return 'failed';
    }
  }

  /** Gives a claimed slot back (its send failed), unless the workflow changed since the claim. */
  private async giveBack(read: DueWorkflow, release: () => Promise<boolean>): Promise<void> {
    try {
      // False when it changed meanwhile (switched off, edited): its new state stands.
      await release();
    } catch (error) {
      // The slot stays moved on: these runs are missed, the next ones run; say so loudly.
      this.deps.logger.error('Créneau non rendu après un envoi refusé', {
        workflowId: read.workflow.id,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    }
  }

  private report(trigger: SchedulerTrigger, shard: number, result: ShardResult, claimed: number): void {
    const metrics = this.deps.metrics ?? noMetrics;
    metrics.count(METRIC.dueFound, result.checked);
    metrics.count(METRIC.dueClaimed, claimed);
    metrics.count(METRIC.dueEnqueued, result.queued);
    this.deps.logger.debug('Lot du planificateur traité', {
      trigger,
      shard,
      checked: result.checked,
      dispatched: result.queued,
      failed: result.failed,
      alreadyQueued: result.alreadyQueued,
    });
  }
}

/** What each plan became, for the result: queued (and when its first call starts), or refused. */
function executionsOf(plans: readonly Plan[], sent: readonly Sent[]): SchedulerExecution[] {
  return plans.map((plan, index) => {
    const base = { workflowId: plan.read.workflow.id, workflowName: plan.read.workflow.name };
    const outcome = sent[index];
    if (!outcome?.queued) return { ...base, status: 'failed', message: MESSAGES.scheduler.queueFailed };
    return {
      ...base,
      status: 'queued',
      message:
        outcome.delaySeconds > 0
          ? MESSAGES.scheduler.queuedWithDelay(outcome.delaySeconds)
          : MESSAGES.scheduler.queued,
    };
  });
}

function claimFailures(failed: readonly Pick<Plan, 'read'>[]): SchedulerExecution[] {
  return failed.map(({ read }) => ({
    workflowId: read.workflow.id,
    workflowName: read.workflow.name,
    status: 'failed',
    message: MESSAGES.scheduler.claimFailed,
  }));
}

/**
 * A shard's result from its executions (each failed or queued): every workflow counted, the
 * failures listed first, then the queued ones that report their end (`listed`),
 * `CLAIMS.listedPerShard` at most.
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
