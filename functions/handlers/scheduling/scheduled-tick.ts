import { METRIC } from '../../domain/core/metrics';
import type { ShardClaimRequest } from '../../domain/scheduling/ports';
import { DUE_SHARDS } from '../../domain/scheduling/scheduling-settings';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { schedulerRunsOf } from '../../runtime/services/scheduling';

/** What the minute schedule sends (EventBridge Scheduler passes its target's input through). */
export type ScheduledTickEvent = unknown;

/** What a tick returns, for the logs of an invocation. */
export interface ScheduledTickResult {
  readonly tickAt: string;
  readonly shards: number;
}

/**
 * The minute tick's coordinator: starts one claimer per shard with the same tick time and records the
 * tick's start; a claimer that did not start is tried once more, then the invocation fails so the
 * schedule retries (a slot is claimed once however many claimers overlap).
 */
const create =
  (deps: AppDependencies) =>
  async (_event: ScheduledTickEvent): Promise<ScheduledTickResult> => {
    const tickAt = deps.clock.now().toISOString();
    await schedulerRunsOf(deps.table)
      .startFanOut('schedule', tickAt, DUE_SHARDS)
      .catch((error: unknown) => {
        deps.logger.warn('Résultat du planificateur non enregistré', {
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      });
    const requests: ShardClaimRequest[] = Array.from({ length: DUE_SHARDS }, (_, shard) => ({
      shard,
      tickAt,
    }));
    let { failed } = await deps.dueClaimers.start(requests);
    if (failed.length > 0) {
      ({ failed } = await deps.dueClaimers.start(
        requests.filter((request) => failed.includes(request.shard)),
      ));
    }
    deps.logger[failed.length > 0 ? 'warn' : 'debug']('Planificateur réparti', {
      tickAt,
      shards: DUE_SHARDS,
      notStarted: failed.length,
    });
    if (failed.length > 0) throw new Error(`${failed.length} lot(s) du planificateur non démarré(s)`);
    // The heartbeat: its absence for five minutes is an alarm (lib/constructs/monitoring.ts).
    deps.metrics.count(METRIC.tickCompleted);
    return { tickAt, shards: DUE_SHARDS };
  };

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createScheduledTickHandler = declaredFunction('scheduled-tick', create);

export const handler = lambdaEntry('scheduled-tick', createScheduledTickHandler);
