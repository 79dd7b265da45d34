import { MESSAGES } from '../../shared/messages';
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
      const done = Promise.all(requests.map(invoke)).then((answers) => logTick(logger, requests, answers));
      if (options.wait) await done;
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

/**
 * One line for a whole tick, and only when it queued something or a batch failed: the console of
 * `npm start` stays readable (each batch's own line is at debug level).
 */
function logTick(
  logger: Logger,
  requests: readonly ShardClaimRequest[],
  answers: readonly (ShardClaimAnswer | null)[],
): void {
  const total = { checked: 0, queued: 0, failed: 0 };
  for (const answer of answers) {
    total.checked += answer?.checked ?? 0;
    total.queued += answer?.queued ?? 0;
    total.failed += answer ? answer.failed : 1;
  }
  if (total.queued === 0 && total.failed === 0) return;
  // The counts in the message too: the console of `npm start` prints an info line's message only.
  const line = MESSAGES.scheduler.summary(total.queued, total.checked);
  const facts = { tickAt: requests[0]?.tickAt, ...total };
  if (total.failed > 0) logger.warn(`${line} (${total.failed} en échec)`, facts);
  else logger.info(line, facts);
}
