import * as z from 'zod';
import type { ShardClaimAnswer } from '../../domain/scheduling/ports';
import { DUE_SHARDS } from '../../domain/scheduling/scheduling-settings';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { schedulerRunsOf, schedulerServiceOf } from '../../runtime/services/scheduling';

/** What the coordinator sends each claimer (functions/handlers/scheduling/scheduled-tick.ts, domain/run-scheduler.ts). */
const ShardClaimEvent = z.object({
  shard: z
    .number()
    .int()
    .min(0)
    .max(DUE_SHARDS - 1),
  tickAt: z.iso.datetime(),
  trigger: z.enum(['manual', 'manual_force']).optional(),
});

/**
 * One claimer: one shard of a scheduler run, its counts added to the run's last result and returned
 * to an admin's run. A shard that could not be read fails the invocation, so Lambda retries it.
 */
const create = (deps: AppDependencies) => {
  const service = schedulerServiceOf({
    table: deps.table,
    queue: deps.webhookQueue,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  const runs = schedulerRunsOf(deps.table);
  return async (event: unknown): Promise<ShardClaimAnswer> => {
    const { shard, tickAt, trigger } = ShardClaimEvent.parse(event);
    const result = trigger
      ? await service.runShard(shard, new Date(tickAt), trigger)
      : await service.claimShard(shard, new Date(tickAt));
    await runs.addShard(trigger ? 'manual' : 'schedule', tickAt, shard, result).catch((error: unknown) => {
      deps.logger.warn('Résultat du lot non enregistré', {
        shard,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
    return { shard, ...result };
  };
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createDueClaimerHandler = declaredFunction('due-claimer', create);

export const handler = lambdaEntry('due-claimer', createDueClaimerHandler);
