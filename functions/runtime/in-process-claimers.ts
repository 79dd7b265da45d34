import type { Logger } from './dependencies';
import type { DueClaimers, ShardClaimRequest } from './scheduling-ports';

/**
 * The claimers outside AWS: the claimer handler called in this process, as Lambda would invoke it.
 * The handler is bound after the dependencies are built (it needs them); `wait` makes `start`
 * return once every claimer finished (tests), otherwise it returns at once as an asynchronous
 * invocation does (the local runtime), and a failed claimer is logged.
 */
export function inProcessClaimers(logger: Logger, options: { readonly wait: boolean }) {
  let claim: ((request: ShardClaimRequest) => Promise<unknown>) | undefined;
  const claimers: DueClaimers = {
    async start(requests) {
      const bound = claim;
      if (!bound) throw new Error('Répartiteur du planificateur non relié');
      const runs = requests.map((request) =>
        bound(request).catch((error: unknown) => {
          logger.error('Lot du planificateur en échec', {
            shard: request.shard,
            errorName: error instanceof Error ? error.name : 'inconnu',
            errorMessage: error instanceof Error ? error.message : undefined,
          });
        }),
      );
      if (options.wait) await Promise.all(runs);
      return { failed: [] };
    },
  };
  return {
    claimers,
    bind(handler: (request: ShardClaimRequest) => Promise<unknown>) {
      claim = handler;
    },
  };
}
