import type { Logger } from '../domain/core/ports';
import type { DueClaimers, ShardClaimAnswer, ShardClaimRequest } from '../domain/scheduling/ports';

/**
 * The claimers outside AWS: the claimer handler called in this process, as Lambda would invoke it.
 * The handler is bound after the dependencies are built (it needs them). `start` (the minute tick)
 * returns at once as an asynchronous invocation does, or once every claimer finished with `wait`
 * (tests); `claim` (an admin's run) answers when its claimer is done. A failed claimer is logged.
 */
export function inProcessClaimers(logger: Logger, options: { readonly wait: boolean }) {
  let claim: ((request: ShardClaimRequest) => Promise<ShardClaimAnswer>) | undefined;
  const invoke = (request: ShardClaimRequest): Promise<ShardClaimAnswer | null> => {
    const bound = claim;
    if (!bound) return Promise.reject(new Error('Répartiteur du planificateur non relié'));
    return bound(request).catch((error: unknown) => {
      logger.error('Lot du planificateur en échec', {
        shard: request.shard,
        errorName: error instanceof Error ? error.name : 'inconnu',
        errorMessage: error instanceof Error ? error.message : undefined,
      });
      return null;
    });
  };
  const claimers: DueClaimers = {
    async start(requests) {
      if (!claim) throw new Error('Répartiteur du planificateur non relié');
      const runs = requests.map(invoke);
      if (options.wait) await Promise.all(runs);
      return { failed: [] };
    },
    claim: invoke,
  };
  return {
    claimers,
    bind(handler: (request: ShardClaimRequest) => Promise<ShardClaimAnswer>) {
      claim = handler;
    },
  };
}
