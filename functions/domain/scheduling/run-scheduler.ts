import { MESSAGES } from '../../../shared/messages';
import type { SchedulerRun } from '../../../shared/schemas/scheduler';
import { METRIC, type Metrics } from '../core/metrics';
import type { Clock, Logger } from '../core/ports';
import type { DueClaimers, SchedulerRuns, ShardClaimAnswer, ShardClaimRequest } from './ports';
import { combinedResult } from './scheduler';
import { ADMIN_RUN, DUE_SHARDS } from './scheduling-settings';

/** What became of one shard's claimer while the request waited. */
type ShardOutcome = ShardClaimAnswer | 'failed' | 'pending';

/**
 * An admin's run fanned out like the minute tick, one claimer per shard, so the request takes one
 * shard's time and answers within the API's time-out; a claimer failing twice is counted as not run, one
 * still working after the wait completes the last result later. Never throws: a failure is a result.
 */
export interface RunSchedulerDependencies {
  readonly lastResults: Pick<SchedulerRuns, 'startFanOut' | 'addShardsNotRun' | 'save'>;
  readonly dueClaimers: Pick<DueClaimers, 'claim'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export async function runScheduler(
  deps: RunSchedulerDependencies,
  trigger: 'manual' | 'manual_force',
  /** `stopWaiting`: the request answers when it settles, if before `ADMIN_RUN.waitSeconds`. */
  options: { readonly stopWaiting?: Promise<unknown> } = {},
): Promise<SchedulerRun> {
  const at = deps.clock.now().toISOString();
  const { lastResults } = deps;
  try {
    await lastResults.startFanOut(trigger, at, DUE_SHARDS).catch((error: unknown) => {
      // The runs still go: only the last result misses them.
      deps.logger.warn('Résultat du planificateur non enregistré', {
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
    const outcomes = await untilDeadline(ADMIN_RUN.waitSeconds * 1000, options.stopWaiting, (deadline) =>
      Array.from({ length: DUE_SHARDS }, async (_, shard): Promise<ShardOutcome> => {
        const request: ShardClaimRequest = { shard, tickAt: at, trigger };
        const first = await deadline(deps.dueClaimers.claim(request));
        if (first !== null) return first;
        return (await deadline(deps.dueClaimers.claim(request))) ?? 'failed';
      }),
    );
    const answered = outcomes.filter((outcome): outcome is ShardClaimAnswer => typeof outcome === 'object');
    const notRun = outcomes.filter((outcome) => outcome === 'failed').length;
    const pending = outcomes.filter((outcome) => outcome === 'pending').length;
    if (notRun > 0) {
      // The admin reads it in the reply; the metric is on the operations dashboard.
      deps.metrics.count(METRIC.shardsNotRun, notRun);
      deps.logger.error('Lots du planificateur sans réponse', { trigger, notRun });
      await lastResults.addShardsNotRun(at, notRun).catch(() => undefined);
    }
    const combined = combinedResult(trigger, at, answered, notRun);
    const run =
      pending > 0
        ? { ...combined, message: MESSAGES.scheduler.withShardsPending(combined.message, pending) }
        : combined;
    deps.logger.info('Planificateur exécuté', {
      trigger,
      checked: run.workflows_checked,
      processed: run.workflows_processed,
      notRun,
      pending,
    });
    return run;
  } catch (failure) {
    deps.logger.error('Planificateur interrompu', {
      trigger,
      errorName: failure instanceof Error ? failure.name : 'inconnu',
      errorMessage: failure instanceof Error ? failure.message : undefined,
    });
    const run: SchedulerRun = {
      trigger,
      success: false,
      timestamp: at,
      workflows_checked: 0,
      executions: [],
      message: MESSAGES.scheduler.failed,
      error: MESSAGES.scheduler.unexpected,
    };
    await lastResults.save(run).catch((error: unknown) => {
      deps.logger.warn('Résultat du planificateur non enregistré', {
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
    return run;
  }
}

/**
 * Runs `start` with a `deadline` that makes any promise it wraps settle as 'pending' once
 * `waitMs` have passed (a wall-clock limit, the API's, not the domain's clock), or `stopWaiting` settled.
 */
async function untilDeadline<T>(
  waitMs: number,
  stopWaiting: Promise<unknown> | undefined,
  start: (deadline: <V>(work: Promise<V>) => Promise<V | 'pending'>) => Promise<T>[],
): Promise<T[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), waitMs);
    stopWaiting?.then(
      () => resolve('pending'),
      () => resolve('pending'),
    );
  });
  try {
    return await Promise.all(start((work) => Promise.race([work, expired])));
  } finally {
    clearTimeout(timer);
  }
}
