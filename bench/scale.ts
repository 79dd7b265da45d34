import { loadavg } from 'node:os';
import type { Table } from '../functions/data/table/table';
import { RecordedMetrics } from '../functions/domain/core/metrics';
import { FORCED_RUN_WINDOW_MS } from '../functions/domain/scheduling/scheduler';
import { CLAIMS, DUE_SHARDS, FIRM_CALLS } from '../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../functions/handlers/scheduling/due-claimer';
import { createScheduledTickHandler } from '../functions/handlers/scheduling/scheduled-tick';
import type { AppDependencies } from '../functions/runtime/dependencies';
import { systemClock } from '../functions/runtime/dependencies';
import { inProcessClaimers } from '../functions/runtime/in-process-claimers';
import { startLocalQueues } from '../lib/local/queue/local-queues';
import { quietLogger } from './quiet-logger';
import { batchWrite, benchTable, benchWorkflow, dropTable, itemsOf } from './scheduler';

/**
 * `npm run bench -- scale`: the simulation and cost model of 10,000 firms' 1,000,000 automations.
 *
 * Measured on this machine: DynamoDB Local (one Java process) and fauxqs, `workflows` automations
 * of `firms` firms bulk-loaded with BatchWriteItem (25 a call, 16 calls in flight), `due` of them
 * due now; one minute tick runs as in AWS (coordinator, then one claimer per due-index shard, the
 * real handlers) with every claimer in this process at once. Every DynamoDB command and queue call
 * is counted.
 *
 * Projected to 1,000,000 automations / 10,000 firms with a stated model (below), and priced with
 * eu-west-3 on-demand prices written here with their date.
 */

/**
 * AWS eu-west-3 (Paris) on-demand prices, USD, as known to the author on 2025-06-01 (no network
 * here to check them: re-read https://aws.amazon.com/dynamodb/pricing/on-demand/,
 * /sqs/pricing/, /lambda/pricing/ before relying on the cost figures).
 */
export const PRICES_EU_WEST_3 = {
  date: '2025-06-01',
  /** DynamoDB on-demand, per million write / read request units (after the Nov. 2024 reduction). */
  dynamoWritePerMillion: 0.7625,
  dynamoReadPerMillion: 0.1525,
  /** SQS standard queue, per million requests (one request per 64 KB chunk; a batch of 10 is one). */
  sqsPerMillion: 0.4,
  /** Lambda arm64: per million requests, per GB-second. */
  lambdaPerMillion: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  /** CloudWatch Logs ingestion, per GB. */
  logsPerGb: 0.53,
} as const;

/**
 * The cost model, per run (one scheduled call of one automation), written from the code:
 * - tick: the claimer's Query reads the due schedule items (≈ 0.4 KB each, ≈ 0.5 KB as an index
 *   entry; eventually consistent: 0.5 RRU per 4 KB, so 1 RRU per ~16 items); one SendMessageBatch
 *   per 10 runs; the claim, one UpdateItem of the workflow's schedule item alone (under 1 KB:
 *   1 WRU) whose due-index entry moves (its sort key changes: delete + put, 2 WRU): 3 WRU, as
 *   DynamoDB Local counts it (test/integration/data/scheduling/schedule-items.test.ts). The workflow item and
 *   its list-index copies (GSI1, GSI2, GSI3) are not written: that was 5-6 WRU a claim before.
 * - worker: the workflow item (not its schedule item) and the dispatch marker read strongly
 *   (2 RRU), the firm slot taken and given back (2 WRU), the record: a transaction of 3
 *   items (cronLastRun on the schedule item; the execution; the dispatch marker): 2 × 3 WRU
 *   transactional + 1 WRU for the schedule item's due-index entry (cronLastRun is projected there:
 *   the entry is rewritten, its key unchanged) = 7 WRU; the health at the run's end: the summary
 *   and three hour counters (the workflow's, everyone's shard, the lawyer's), 4 WRU (the failing
 *   set only when a state changes: left out); one SQS receive and one delete (the event
 *   source receives and deletes per message at batch size 1); one Lambda invocation of the worker
 *   (512 MB) lasting the receiver's answer plus ~60 ms of our own; ~1 KB of logs.
 */
export const MODEL_PER_RUN = {
  tickReadUnits: 1 / 16,
  claimWriteUnits: 3,
  workerReadUnits: 2,
  workerWriteUnits: 2 + 7 + 4,
  sqsRequests: 0.1 + 2,
  workerMemoryGb: 0.5,
  workerOwnMs: 60,
  logBytes: 1_000,
} as const;

export interface ScaleScenario {
  readonly workflows: number;
  readonly firms: number;
  /** Share of the automations scheduled, and their mean interval (minutes). */
  readonly scheduledShare: number;
  readonly meanIntervalMinutes: number;
  /** Mean answer time of the firms' n8n (ms). */
  readonly answerMs: number;
}

export interface ScaleCost {
  readonly runsPerMinute: number;
  readonly runsPerMonth: number;
  readonly dynamoUsd: number;
  readonly sqsUsd: number;
  readonly lambdaUsd: number;
  readonly logsUsd: number;
  readonly totalUsd: number;
  readonly perFirmUsd: number;
  /** Worker calls in flight on average (runs/s × call time): what the global concurrency must hold. */
  readonly callsInFlight: number;
}

const MINUTES_PER_MONTH = 30 * 24 * 60;

export function costOf(scenario: ScaleScenario): ScaleCost {
  const runsPerMinute = (scenario.workflows * scenario.scheduledShare) / scenario.meanIntervalMinutes;
  const runsPerMonth = runsPerMinute * MINUTES_PER_MONTH;
  const m = MODEL_PER_RUN;
  const p = PRICES_EU_WEST_3;
  const dynamoUsd =
    (runsPerMonth * (m.claimWriteUnits + m.workerWriteUnits) * p.dynamoWritePerMillion) / 1e6 +
    (runsPerMonth * (m.tickReadUnits + m.workerReadUnits) * p.dynamoReadPerMillion) / 1e6;
  const sqsUsd = (runsPerMonth * m.sqsRequests * p.sqsPerMillion) / 1e6;
  const seconds = (scenario.answerMs + m.workerOwnMs) / 1000;
  const lambdaUsd =
    (runsPerMonth * p.lambdaPerMillion) / 1e6 +
    runsPerMonth * seconds * m.workerMemoryGb * p.lambdaArmPerGbSecond;
  const logsUsd = ((runsPerMonth * m.logBytes) / 1e9) * p.logsPerGb;
  const totalUsd = dynamoUsd + sqsUsd + lambdaUsd + logsUsd;
  return {
    runsPerMinute,
    runsPerMonth,
    dynamoUsd,
    sqsUsd,
    lambdaUsd,
    logsUsd,
    totalUsd,
    perFirmUsd: totalUsd / scenario.firms,
    callsInFlight: (runsPerMinute / 60) * seconds,
  };
}

export interface TickFigures {
  readonly workflows: number;
  readonly firms: number;
  readonly due: number;
  readonly loadSeconds: number;
  readonly loadItemsPerSecond: number;
  readonly queued: number;
  readonly tickSeconds: number;
  readonly claimers: number;
  /** Per claimer: runs / its own duration (they ran at once, sharing one DynamoDB Local). */
  readonly claimRateMedian: number;
  readonly claimRateMin: number;
  /**
   * Claimers run one at a time before the tick, each with the emulator to itself, as each claimer
   * has its own Lambda and its shard its own index partition in AWS: their shard's due runs and
   * how long they took. The tick's other claimers then share the emulator, all at once.
   */
  readonly alone: readonly { readonly shard: number; readonly runs: number; readonly seconds: number }[];
  /**
   * An admin's forced run after the tick, the claimers of the same shards one at a time (in AWS
   * each is its own synchronous invocation, all at once, and the request waits for the slowest):
   * every scheduled automation of the shard claimed and queued.
   */
  readonly forcedAlone: readonly {
    readonly shard: number;
    readonly runs: number;
    readonly seconds: number;
  }[];
  readonly commands: Readonly<Record<string, number>>;
  readonly sendBatches: number;
  readonly loadAverage: string;
}

/** A table whose every command is counted by name (QueryCommand, UpdateCommand…). */
function counting(table: Table, counts: Record<string, number>): Table {
  return {
    name: table.name,
    doc: new Proxy(table.doc, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return (command: { constructor: { name: string } }, ...rest: unknown[]) => {
          counts[command.constructor.name] = (counts[command.constructor.name] ?? 0) + 1;
          return (target.send as (...args: unknown[]) => unknown)(command, ...rest);
        };
      },
    }),
  };
}

/** Loads the automations and runs one fanned-out tick over them. */
export async function runScaleTick(options: {
  readonly endpoint: string;
  readonly workflows: number;
  readonly firms: number;
  readonly due: number;
  /** How many shards are claimed one at a time, alone, before the tick (shards 0, 1…). @default 3 */
  readonly aloneShards?: number;
  readonly log: (line: string) => void;
}): Promise<TickFigures> {
  const table = await benchTable(options.endpoint);
  const queues = await startLocalQueues();
  try {
    const now = Date.now();
    const firms = Array.from({ length: options.firms }, (_, index) => `cabinet.${index}@example.com`);
    const loadStart = performance.now();
    const step = 20_000;
    for (let start = 0; start < options.workflows; start += step) {
      const count = Math.min(step, options.workflows - start);
      // Two items an automation: the workflow and its schedule.
      const items = Array.from({ length: count }, (_, offset) => {
        const index = start + offset;
        // The first `due` are due now; the others later within the hour.
        const nextRun = index < options.due ? now - 1_000 : now + 120_000 + (index % 3_480) * 1_000;
        return itemsOf(
          benchWorkflow({
            lawyerEmail: firms[index % options.firms] as string,
            cronNextRun: new Date(nextRun).toISOString(),
          }),
        );
      }).flat();
      await batchWrite(table, items);
      options.log(`  chargé ${start + count} / ${options.workflows} automatisations`);
    }
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const counts: Record<string, number> = {};
    let sendBatches = 0;
    const queue: AppDependencies['webhookQueue'] = {
      ...queues.dispatchQueue,
      sendBatch: (entries) => {
        sendBatches += 1;
        return queues.dispatchQueue.sendBatch(entries);
      },
    };
    const claimers = inProcessClaimers(quietLogger, { wait: true });
    const deps: AppDependencies = {
      table: counting(table, counts),
      appKeys: () => Promise.reject(new Error('Pas de clés dans le banc')),
      secondFactor: {
        requiredForAdmins: true,
        relyingParty: () => {
          throw new Error('Pas de second facteur dans le banc');
        },
      },
      clock: systemClock,
      logger: quietLogger,
      metrics: new RecordedMetrics(),
      lawyerSecrets: {
        put: () => Promise.reject(new Error('Pas de secrets dans le banc')),
        get: async () => null,
        delete: async () => undefined,
      },
      webhookQueue: queue,
      dueClaimers: claimers.claimers,
      webhookSigningSecret: async () => 'whsec_',
      allowPrivateWebhooks: true,
      publicApiUrl: () => 'http://localhost:3000',
    } as AppDependencies;
    const claimer = createDueClaimerHandler(deps);
    const aloneShards = options.aloneShards ?? 3;
    const alone: { shard: number; runs: number; seconds: number }[] = [];
    for (let shard = 0; shard < aloneShards; shard++) {
      const started = performance.now();
      const result = await claimer({ shard, tickAt: new Date().toISOString() });
      alone.push({ shard, runs: result.queued, seconds: (performance.now() - started) / 1000 });
      options.log(`  lot ${shard} seul : ${result.queued} créneaux en ${alone.at(-1)?.seconds.toFixed(1)} s`);
    }
    const durations: { runs: number; seconds: number }[] = [];
    claimers.bind(async (request) => {
      // Claimed alone above: its runs are no longer due (claiming it again would take the next slot).
      if (request.shard < aloneShards)
        return { shard: request.shard, checked: 0, queued: 0, failed: 0, alreadyQueued: 0, executions: [] };
      const started = performance.now();
      const result = await claimer(request);
      durations.push({ runs: result.queued, seconds: (performance.now() - started) / 1000 });
      return result;
    });
    const tickStart = performance.now();
    await createScheduledTickHandler(deps)({});
    const tickSeconds = (performance.now() - tickStart) / 1000;
    const tickCommands = { ...counts };
    const tickSendBatches = sendBatches;
    // Dated a minute after the tick, so that the tick's claims fall outside the forced run's window
    // (a workflow claimed within the last minute is not forced again).
    const forcedAt = new Date(Date.now() + FORCED_RUN_WINDOW_MS + 1_000).toISOString();
    const forcedAlone: { shard: number; runs: number; seconds: number }[] = [];
    for (let shard = 0; shard < aloneShards; shard++) {
      const started = performance.now();
      const result = await claimer({ shard, tickAt: forcedAt, trigger: 'manual_force' });
      forcedAlone.push({ shard, runs: result.queued, seconds: (performance.now() - started) / 1000 });
      options.log(
        `  exécution forcée, lot ${shard} seul : ${result.queued} automatisations en ${forcedAlone.at(-1)?.seconds.toFixed(1)} s`,
      );
    }
    const rates = durations
      .filter((duration) => duration.runs > 0)
      .map((duration) => duration.runs / duration.seconds)
      .sort((a, b) => a - b);
    const queued = [...alone, ...durations].reduce((sum, duration) => sum + duration.runs, 0);
    return {
      workflows: options.workflows,
      firms: options.firms,
      due: options.due,
      loadSeconds,
      // Two items an automation: the workflow and its schedule item.
      loadItemsPerSecond: (options.workflows * 2) / loadSeconds,
      queued,
      tickSeconds,
      claimers: durations.length,
      claimRateMedian: rates[Math.floor(rates.length / 2)] ?? 0,
      claimRateMin: rates[0] ?? 0,
      alone,
      forcedAlone,
      commands: tickCommands,
      sendBatches: tickSendBatches,
      loadAverage: loadavg()
        .map((value) => value.toFixed(1))
        .join(', '),
    };
  } finally {
    await queues.stop();
    await dropTable(table);
  }
}

/**
 * The projection of one tick to AWS: each claimer's rate is bounded by its shard's index partition
 * (a claim is 2 writes there; a partition takes 1,000 writes/s: 500 claims/s) and by its writes in
 * flight (`CLAIMS.sendConcurrency` batches of 10, ~10 ms a conditional write in-region: about
 * 10,000/s), so 500/s; the 64 claimers start at once (asynchronous invocations).
 */
export function projectedTickSeconds(dueRuns: number): { perShard: number; seconds: number; rate: number } {
  const perShard = Math.ceil(dueRuns / DUE_SHARDS);
  const inFlight = CLAIMS.sendConcurrency * 10;
  const rate = Math.min(500, inFlight / 0.01);
  return { perShard, seconds: perShard / rate + 1, rate };
}

export { FIRM_CALLS };
