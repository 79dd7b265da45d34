import { describe, expect, it } from 'vitest';
import type { ShardClaimAnswer, ShardClaimRequest } from '../../../functions/domain/scheduling/ports';
import { inProcessClaimers } from '../../../functions/runtime/in-process-claimers';
import { logLevelOf } from '../../../functions/runtime/powertools-logger';
import { MemoryLogger } from '../../support/app';

const TICK = '2026-11-27T15:00:00.000Z';
const requests: ShardClaimRequest[] = Array.from({ length: 64 }, (_, shard) => ({ shard, tickAt: TICK }));
const answer = (shard: number, queued = 0, failed = 0): ShardClaimAnswer => ({
  shard,
  checked: queued + failed,
  queued,
  failed,
  alreadyQueued: 0,
  executions: [],
});

/** The local console: one line per minute tick, only when it queued something or failed. */
describe('the local tick on the console', () => {
  const tick = async (claim: (request: ShardClaimRequest) => Promise<ShardClaimAnswer>) => {
    const logger = new MemoryLogger();
    const claimers = inProcessClaimers(logger, { wait: true });
    claimers.bind(claim);
    await claimers.claimers.start(requests);
    return logger.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it('says nothing for a tick that found nothing due', async () => {
    expect(await tick(async ({ shard }) => answer(shard))).toEqual([]);
  });

  it('writes one line for the whole tick when some batches queued runs', async () => {
    const lines = await tick(async ({ shard }) => answer(shard, shard % 8 === 0 ? 2 : 0));
    expect(lines).toEqual([
      {
        level: 'INFO',
        message: 'Planificateur: 16 mises en file sur 16 workflows vérifiés',
        tickAt: TICK,
        checked: 16,
        queued: 16,
        failed: 0,
      },
    ]);
  });

  it('warns once, after each failed batch’s own error, when a batch failed', async () => {
    const lines = await tick(async ({ shard }) => {
      if (shard === 3) throw new Error('table indisponible');
      return answer(shard);
    });
    expect(lines.map(({ level, message }) => [level, message])).toEqual([
      ['ERROR', 'Lot du planificateur en échec'],
      ['WARN', 'Planificateur: 0 mise en file sur 0 workflow vérifié (1 en échec)'],
    ]);
    expect(lines[1]).toMatchObject({ queued: 0, failed: 1 });
  });
});

describe('LOG_LEVEL', () => {
  it('is INFO unless set to a level Powertools knows', () => {
    expect(logLevelOf(undefined)).toBe('INFO');
    expect(logLevelOf('debug')).toBe('DEBUG');
    expect(logLevelOf(' Warn ')).toBe('WARN');
    expect(logLevelOf('verbose')).toBe('INFO');
  });
});
