import * as z from 'zod';

import { DUE_SHARDS } from './data/keys';
import { SchedulerRunRepository } from './data/scheduler-runs';
import { SchedulerService } from './domain/scheduler';
import type { AppDependencies } from './runtime/dependencies';
import { declaredFunction, lambdaEntry } from './runtime/entry';

/** What the coordinator sends each claimer (functions/scheduled-tick.ts). */
const ShardClaimEvent = z.object({
  shard: z
    .number()
    .int()
    .min(0)
    .max(DUE_SHARDS - 1),
  tickAt: z.iso.datetime(),
});

/** What a claimer returns, for the logs of an invocation. */
export interface DueClaimerResult {
  readonly shard: number;
  readonly checked: number;
  readonly queued: number;
  readonly failed: number;
}

/**
 * One claimer of the minute tick: queues and claims the due runs of one due-index shard
 * (`SchedulerService.claimShard`), then adds its counts to the tick's last result. A shard that
 * could not be read fails the invocation, which Lambda retries (asynchronous invocation); what is
 * still not done stays due for the next tick.
 */
const create = (deps: AppDependencies) => {
  const service = new SchedulerService({
    table: deps.table,
    queue: deps.webhookQueue,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  const runs = new SchedulerRunRepository(deps.table);
  return async (event: unknown): Promise<DueClaimerResult> => {
    const { shard, tickAt } = ShardClaimEvent.parse(event);
    const result = await service.claimShard(shard, new Date(tickAt));
    await runs.addShard(tickAt, shard, result).catch((error: unknown) => {
      deps.logger.warn('Résultat du lot non enregistré', {
        shard,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
    return { shard, checked: result.checked, queued: result.queued, failed: result.failed };
  };
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createDueClaimerHandler = declaredFunction('due-claimer', create);

export const handler = lambdaEntry('due-claimer', createDueClaimerHandler);
