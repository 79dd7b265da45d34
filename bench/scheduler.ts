import { randomUUID } from 'node:crypto';

import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { generateWebhookSecret } from '../functions/adapters/scheduling/webhook-signature';
import { scheduleItem, workflowItem } from '../functions/data/directory/workflows';
import { allDuePartitions, dueBound } from '../functions/data/table/due-index';
import { createTable, type Table } from '../functions/data/table/table';
import { chunks, mapWithConcurrency } from '../functions/domain/core/concurrency';
import { noMetrics } from '../functions/domain/core/metrics';
import type { Clock, Logger } from '../functions/domain/core/ports';
import type { WorkflowRecord } from '../functions/domain/directory/ports';
import { TICK_REACH_MS } from '../functions/domain/scheduling/due-slots';
import { DUE_SHARDS, WEBHOOK_QUEUE } from '../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../functions/handlers/scheduling/due-claimer';
import { createScheduledTickHandler } from '../functions/handlers/scheduling/scheduled-tick';
import { createWebhookWorkerHandler } from '../functions/handlers/scheduling/webhook-worker';
import type { AppDependencies } from '../functions/runtime/dependencies';
import { systemClock } from '../functions/runtime/dependencies';
import { inProcessClaimers } from '../functions/runtime/in-process-claimers';
import { schedulerServiceOf } from '../functions/runtime/services/scheduling';
import { ensureTable, LOCAL_AWS } from '../lib/local/dynamodb-local';
import { startLocalQueues } from '../lib/local/queue/local-queues';
import { startMinuteTimer } from '../lib/local/queue/minute-timer';
import { startQueuePoller } from '../lib/local/queue/poller';
import { GLOBAL_SCHEDULING } from '../shared/constants';
import { processCpuSeconds } from './cpu-time';
import { percentile } from './percentile';
import { startBenchReceiver } from './receiver';
import { markdownTable } from './results-file';

/** Figures of the scheduler benchmark, as printed and written to bench/results.md. */
export interface SchedulerBenchFigures {
  readonly ticks: readonly TickFigures[];
  readonly throughput: ThroughputFigures;
  /** The same worker one invocation at a time: its own cost per message, no other in the emulator's queue. */
  readonly throughputAlone: ThroughputFigures;
  readonly lag: LagFigures;
  readonly lagUnderLoad: LoadLagFigures;
  readonly mix: MixFigures;
}

/** Due runs arriving faster than the worker's bound: the queue builds, then drains. */
interface LoadLagFigures {
  readonly workflows: number;
  readonly spreadSeconds: number;
  readonly receiverDelayMs: number;
  readonly arrivalPerSecond: number;
  readonly boundPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The most runs due and not yet started at any moment. */
  readonly maxBacklog: number;
  readonly drainSeconds: number;
  /** Runs called more than once (same workflow, same due time): exactly once means 0. */
  readonly callsTwice: number;
}

/** The product's own mix: 1- and 2-minute intervals recurring on the real clock. */
interface MixFigures {
  readonly workflows: number;
  readonly oneMinute: number;
  readonly twoMinutes: number;
  readonly minutes: number;
  readonly receiverDelayMs: number;
  readonly calls: number;
  readonly expectedCalls: number;
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly maxBacklog: number;
  readonly early: number;
  /** Runs called more than once (same workflow, same due time): exactly once means 0. */
  readonly callsTwice: number;
}

interface TickFigures {
  readonly workflows: number;
  readonly due: number;
  readonly indexItemsRead: number;
  readonly indexReadMs: number;
  readonly scanItemsRead: number;
  readonly scanReadMs: number;
  /** The whole index tick: read, claim and send every due workflow to the queue. */
  readonly indexTickMs: number;
  /** Runs the tick queued or failed to queue: every due one it looked at. */
  readonly processed: number;
}

export interface ThroughputFigures {
  /**
   * Worker invocations at once (the event source's maximum concurrency), each making one call at a
   * time: the bound is this many calls per delay.
   */
  readonly atOnce: number;
  /** Mean records per invocation (the event source's batches, at most `WEBHOOK_QUEUE.batchSize`). */
  readonly recordsPerInvocation: number;
  readonly calls: number;
  readonly receiverDelayMs: number;
  readonly seconds: number;
  readonly callsPerSecond: number;
  readonly boundPerSecond: number;
  readonly maxConcurrent: number;
  /** Invocation time per record (a batch's calls follow one another), the receiver's delay included. */
  readonly msPerMessage: number;
  /** DynamoDB calls the worker made per message (its round trips are what the gap is made of). */
  readonly dynamoCallsPerMessage: number;
  /**
   * Mean time from sending one of those calls to its answer, reads and writes apart: what the
   * message waits on beside the receiver, the emulator's queue included.
   */
  readonly msPerDynamoCall: Readonly<Record<'read' | 'write', number>>;
  /** DynamoDB Local's (Java's) CPU per message; null without its process id or /proc. */
  readonly emulatorCpuMsPerMessage: number | null;
  /** This process's CPU per message: worker, SDK, poller and fauxqs (the receiver runs apart). */
  readonly benchCpuMsPerMessage: number;
}

interface LagFigures {
  readonly workflows: number;
  readonly spreadSeconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly early: number;
}

/** The DynamoDB commands (as the client's middleware names them) that only read: the others write. */
const READ_COMMANDS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);

const quietLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A fresh table in DynamoDB Local (the bench's own), dropped at the end. */
export async function benchTable(endpoint: string): Promise<Table> {
  const name = `bench-${randomUUID()}`;
  await ensureTable(endpoint, name);
  return createTable(name, { ...LOCAL_AWS, endpoint, maxAttempts: 10 });
}

export async function dropTable(table: Table) {
  await table.doc.send(new DeleteTableCommand({ TableName: table.name }));
  table.doc.destroy();
}

export function benchWorkflow(overrides: Partial<WorkflowRecord>): WorkflowRecord {
  return {
    id: randomUUID(),
    name: 'Relance dossier client',
    description: 'Relance les clients pour les pièces manquantes de leur dossier',
    webhookUrl: 'https://n8n.example.com/webhook/client-reminder',
    lawyerEmail: `avocat.${randomUUID().slice(0, 8)}@example.com`,
    active: true,
    type: 'client_reminder',
    folderId: null,
    tags: [],
    category: null,
    cronEnabled: true,
    cronInterval: 60,
    cronLastRun: null,
    cronNextRun: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The items the repository writes for a workflow: the workflow item and its schedule item. */
export function itemsOf(record: WorkflowRecord) {
  return [workflowItem(record), scheduleItem(record, record.updatedAt)];
}

/** Writes items fast: BatchWriteItem by 25, several batches in flight, unprocessed items retried. */
export async function batchWrite(table: Table, items: Record<string, unknown>[]) {
  await mapWithConcurrency(chunks(items, 25), 16, async (batch) => {
    let requests = batch.map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const { UnprocessedItems } = await table.doc.send(
        new BatchWriteCommand({ RequestItems: { [table.name]: requests } }),
      );
      requests = (UnprocessedItems?.[table.name] ?? []) as typeof requests;
    }
  });
}

/** Items read (before filters) and items matched by a paginated read. */
interface ReadCount {
  itemsRead: number;
  due: number;
}

/**
 * Runs paginated reads in parallel (one per partition or segment) and adds up what DynamoDB says
 * it read (ScannedCount) and matched (Count): the figures both readers are compared on.
 */
async function countPages(
  readers: readonly ((startKey: Record<string, unknown> | undefined) => Promise<{
    ScannedCount?: number;
    Count?: number;
    LastEvaluatedKey?: Record<string, unknown>;
  }>)[],
): Promise<ReadCount> {
  const count: ReadCount = { itemsRead: 0, due: 0 };
  await Promise.all(
    readers.map(async (readPage) => {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await readPage(startKey);
        count.itemsRead += page.ScannedCount ?? 0;
        count.due += page.Count ?? 0;
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }),
  );
  return count;
}

/** Reads the due workflows through the due index, as the scheduler does; counts the items read. */
function readThroughIndex(table: Table, now: Date): Promise<ReadCount> {
  const bound = dueBound(new Date(now.getTime() + TICK_REACH_MS));
  return countPages(
    allDuePartitions().map(
      (partition) => (startKey: Record<string, unknown> | undefined) =>
        table.doc.send(
          new QueryCommand({
            TableName: table.name,
            IndexName: 'DueSlots',
            KeyConditionExpression: 'DuePK = :pk AND DueSK <= :bound',
            ExpressionAttributeValues: { ':pk': partition, ':bound': bound },
            ExclusiveStartKey: startKey,
          }),
        ),
    ),
  );
}

/**
 * The baseline: a Scan of the table with a filter on active, scheduled and due (parallel, one
 * segment per index shard so that both readers have the same parallelism).
 */
function readThroughScan(table: Table, now: Date): Promise<ReadCount> {
  const bound = new Date(now.getTime() + TICK_REACH_MS).toISOString();
  return countPages(
    Array.from(
      { length: DUE_SHARDS },
      (_, segment) => (startKey: Record<string, unknown> | undefined) =>
        table.doc.send(
          new ScanCommand({
            TableName: table.name,
            Segment: segment,
            TotalSegments: DUE_SHARDS,
            FilterExpression:
              'entity = :schedule AND active = :true AND cronEnabled = :true AND (attribute_type(cronNextRun, :null) OR cronNextRun <= :bound)',
            ExpressionAttributeValues: {
              ':schedule': 'Schedule',
              ':true': true,
              ':null': 'NULL',
              ':bound': bound,
            },
            ExclusiveStartKey: startKey,
          }),
        ),
    ),
  );
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Part 1: items read and time per tick, due index against a Scan, at one table size. */
async function tickFigures(
  endpoint: string,
  workflows: number,
  log: (line: string) => void,
): Promise<TickFigures> {
  const table = await benchTable(endpoint);
  const queues = await startLocalQueues();
  try {
    const now = new Date();
    const dueCount = Math.round(workflows / 100);
    const items = Array.from({ length: workflows }, (_, index) =>
      itemsOf(
        benchWorkflow(
          index < dueCount
            ? { cronNextRun: new Date(now.getTime() - 30_000 - index).toISOString() }
            : {
                cronNextRun: new Date(now.getTime() + 5 * 60_000 + (index % 55) * 60_000).toISOString(),
              },
        ),
      ),
    ).flat();
    const written = await timed(() => batchWrite(table, items));
    log(`  ${workflows} automatisations écrites en ${(written.ms / 1000).toFixed(1)} s`);

    const indexRuns: { ms: number; itemsRead: number; due: number }[] = [];
    const scanRuns: { ms: number; itemsRead: number; due: number }[] = [];
    for (let run = 0; run < 3; run++) {
      const index = await timed(() => readThroughIndex(table, now));
      indexRuns.push({ ms: index.ms, ...index.result });
      const scan = await timed(() => readThroughScan(table, now));
      scanRuns.push({ ms: scan.ms, ...scan.result });
    }
    if (indexRuns.some((run) => run.due !== dueCount) || scanRuns.some((run) => run.due !== dueCount)) {
      throw new Error('Les deux lectures ne trouvent pas les mêmes automatisations dues');
    }

    const clock: Clock = { now: () => now, sleep: systemClock.sleep };
    const scheduler = schedulerServiceOf({
      table,
      queue: queues.dispatchQueue,
      clock,
      logger: quietLogger,
    });
    const tick = await timed(() => scheduler.run('schedule'));
    return {
      workflows,
      due: dueCount,
      indexItemsRead: indexRuns[0]?.itemsRead ?? 0,
      indexReadMs: median(indexRuns.map((run) => run.ms)),
      scanItemsRead: scanRuns[0]?.itemsRead ?? 0,
      scanReadMs: median(scanRuns.map((run) => run.ms)),
      indexTickMs: tick.ms,
      // The executions are a short list per shard, each 'queued' (its end comes later): the counts are whole.
      processed: tick.result.workflows_processed ?? 0,
    };
  } finally {
    await queues.stop();
    await dropTable(table);
  }
}

/** The dependencies of the real handlers on a bench table and local queues, with the real clock. */
export function benchDependencies(
  table: Table,
  queue: AppDependencies['webhookQueue'],
  claimers = inProcessClaimers(quietLogger, { wait: false }),
): AppDependencies {
  const secret = generateWebhookSecret();
  const deps: AppDependencies = {
    table,
    appKeys: () => Promise.reject(new Error('Pas de clés dans le banc')),
    secondFactor: {
      requiredForAdmins: true,
      relyingParty: () => {
        throw new Error('Pas de second facteur dans le banc');
      },
    },
    clock: systemClock,
    logger: quietLogger,
    metrics: noMetrics,
    lawyerSecrets: {
      put: () => Promise.reject(new Error('Pas de secrets dans le banc')),
      get: async () => null,
      delete: async () => undefined,
    },
    webhookQueue: queue,
    dueClaimers: claimers.claimers,
    webhookSigningSecret: async () => secret,
    allowPrivateWebhooks: true,
    publicApiUrl: () => 'http://localhost:3000',
  };
  claimers.bind(createDueClaimerHandler(deps));
  return deps;
}

async function waitFor(check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('Délai du banc dépassé');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Part 2: calls per second through the real worker and poller against the bound 5 / delay (alone:
 * `npm run bench -- throughput`, a minute instead of the quarter of an hour of the worker part),
 * then one invocation at a time: the worker's own time per message, with no other invocation's
 * calls queued at the emulator before its own, is the best the 5 at once could reach here.
 */
export async function throughputFigures(
  endpoint: string,
  calls: number,
  delayMs: number,
  emulatorPid?: number,
): Promise<{ atOnce: ThroughputFigures; alone: ThroughputFigures }> {
  const atOnce = GLOBAL_SCHEDULING.maxConcurrentWorkflows;
  // A first run of the same shape, not counted: the emulator's and the worker's code compiled, the
  // figure is the steady state (as the API bench's warm-up). The first run of a fresh emulator
  // measured 58-68 %, the next ones 73-78 % (2026-11-25, load 1-2).
  await deliveryFigures(endpoint, Math.min(calls, 100), delayMs, atOnce);
  return {
    atOnce: await deliveryFigures(endpoint, calls, delayMs, atOnce, emulatorPid),
    alone: await deliveryFigures(endpoint, Math.min(calls, 50), delayMs, 1, emulatorPid),
  };
}

async function deliveryFigures(
  endpoint: string,
  calls: number,
  delayMs: number,
  atOnce: number,
  emulatorPid?: number,
): Promise<ThroughputFigures> {
  const table = await benchTable(endpoint);
  const queues = await startLocalQueues();
  const receiver = await startBenchReceiver(delayMs);
  // The runs are queued by the minute tick as in production (its claimers awaited here, so that
  // every run waits in the queue before the worker starts): each listed run reports its end to
  // its shard's last-result item.
  const deps = benchDependencies(table, queues.dispatchQueue, inProcessClaimers(quietLogger, { wait: true }));
  try {
    await batchWrite(
      table,
      Array.from({ length: calls }, () => itemsOf(benchWorkflow({ webhookUrl: receiver.url }))).flat(),
    );
    await createScheduledTickHandler(deps)({});
    // Where the time goes beside the receiver: each invocation's length, and the worker's
    // DynamoDB calls (counted from here on: only the worker uses the table now).
    let dynamoCalls = 0;
    const dynamoTimes = { read: { calls: 0, ms: 0 }, write: { calls: 0, ms: 0 } };
    table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        dynamoCalls += 1;
        const sent = performance.now();
        try {
          return await next(args);
        } finally {
          const kind = READ_COMMANDS.has(context.commandName ?? '') ? dynamoTimes.read : dynamoTimes.write;
          kind.calls += 1;
          kind.ms += performance.now() - sent;
        }
      },
      { step: 'initialize', name: 'bench-dynamo-calls' },
    );
    const emulatorCpuBefore = processCpuSeconds(emulatorPid);
    const benchCpuBefore = process.cpuUsage();
    const worker = createWebhookWorkerHandler(deps);
    const invocationMs: number[] = [];
    let records = 0;
    const started = Date.now();
    const poller = startQueuePoller({
      client: queues.client,
      queueUrl: queues.queueUrl,
      handler: async (event) => {
        const invoked = performance.now();
        const response = await worker(event);
        invocationMs.push(performance.now() - invoked);
        records += event.Records.length;
        return response;
      },
      maxConcurrency: atOnce,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: quietLogger,
    });
    await waitFor(() => receiver.finished === calls, 10 * 60_000);
    const seconds = (Date.now() - started) / 1000;
    const emulatorCpuAfter = processCpuSeconds(emulatorPid);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    await poller.stop();
    const messages = Math.max(1, records);
    return {
      atOnce,
      recordsPerInvocation: records / Math.max(1, invocationMs.length),
      calls,
      receiverDelayMs: delayMs,
      seconds,
      callsPerSecond: calls / seconds,
      boundPerSecond: atOnce / (delayMs / 1000),
      maxConcurrent: receiver.maxConcurrent,
      msPerMessage: invocationMs.reduce((sum, ms) => sum + ms, 0) / messages,
      dynamoCallsPerMessage: dynamoCalls / messages,
      msPerDynamoCall: {
        read: dynamoTimes.read.ms / Math.max(1, dynamoTimes.read.calls),
        write: dynamoTimes.write.ms / Math.max(1, dynamoTimes.write.calls),
      },
      emulatorCpuMsPerMessage:
        emulatorCpuBefore === null || emulatorCpuAfter === null
          ? null
          : ((emulatorCpuAfter - emulatorCpuBefore) * 1000) / messages,
      benchCpuMsPerMessage: (benchCpu.user + benchCpu.system) / 1000 / messages,
    };
  } finally {
    await receiver.stop();
    await queues.stop();
    await dropTable(table);
  }
}

/**
 * Part 3: lag from due time to the call's start, with the real clock, the minute timer, the
 * scheduler's look-ahead, fauxqs delays and the poller, over workflows due at scattered times.
 */
async function lagFigures(endpoint: string, workflows: number, spreadSeconds: number): Promise<LagFigures> {
  const table = await benchTable(endpoint);
  const queues = await startLocalQueues();
  const receiver = await startBenchReceiver(0);
  const deps = benchDependencies(table, queues.dispatchQueue);
  try {
    const start = Date.now() + 5_000;
    await batchWrite(
      table,
      Array.from({ length: workflows }, () =>
        itemsOf(
          benchWorkflow({
            webhookUrl: receiver.url,
            cronNextRun: new Date(start + Math.random() * spreadSeconds * 1000).toISOString(),
          }),
        ),
      ).flat(),
    );
    const poller = startQueuePoller({
      client: queues.client,
      queueUrl: queues.queueUrl,
      handler: createWebhookWorkerHandler(deps),
      maxConcurrency: GLOBAL_SCHEDULING.maxConcurrentWorkflows,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: quietLogger,
    });
    const tick = createScheduledTickHandler(deps);
    const timer = startMinuteTimer(() => tick({}), quietLogger, { firstTickDelayMs: 0 });
    await waitFor(() => receiver.finished === workflows, (spreadSeconds + 120) * 1000);
    await timer.stop();
    await poller.stop();
    const lags = receiver.starts.map((call) => call.at - Date.parse(call.dueAt ?? '')).sort((a, b) => a - b);
    return {
      workflows,
      spreadSeconds,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
      maxMs: lags[lags.length - 1] ?? 0,
      early: lags.filter((lag) => lag < 0).length,
    };
  } finally {
    await receiver.stop();
    await queues.stop();
    await dropTable(table);
  }
}

/** The most runs due and not started at once, from the due times and the call starts. */
function maxBacklogOf(calls: readonly { at: number; due: number }[]): number {
  const events = [
    ...calls.map((call) => ({ at: call.due, change: 1 })),
    ...calls.map((call) => ({ at: Math.max(call.at, call.due), change: -1 })),
  ].sort((a, b) => a.at - b.at || a.change - b.change);
  let backlog = 0;
  let most = 0;
  for (const event of events) {
    backlog += event.change;
    most = Math.max(most, backlog);
  }
  return most;
}

/**
 * Runs the real tick (minute timer), poller and worker on the real clock against a receiver with a
 * fixed delay, until `done` says so; returns each call's start and due time.
 */
async function realClockRun(
  endpoint: string,
  receiverDelayMs: number,
  workflows: (receiverUrl: string) => WorkflowRecord[],
  done: (calls: number) => boolean,
  timeoutMs: number,
) {
  const table = await benchTable(endpoint);
  const queues = await startLocalQueues();
  const receiver = await startBenchReceiver(receiverDelayMs);
  const deps = benchDependencies(table, queues.dispatchQueue);
  try {
    await batchWrite(table, workflows(receiver.url).flatMap(itemsOf));
    const poller = startQueuePoller({
      client: queues.client,
      queueUrl: queues.queueUrl,
      handler: createWebhookWorkerHandler(deps),
      maxConcurrency: GLOBAL_SCHEDULING.maxConcurrentWorkflows,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: quietLogger,
    });
    const tick = createScheduledTickHandler(deps);
    const timer = startMinuteTimer(() => tick({}), quietLogger, { firstTickDelayMs: 0 });
    await waitFor(() => done(receiver.finished), timeoutMs);
    await timer.stop();
    await poller.stop();
    const runs = new Set(receiver.starts.map((call) => `${call.workflowId}@${call.dueAt}`));
    return {
      calls: receiver.starts.map((call) => ({ at: call.at, due: Date.parse(call.dueAt ?? '') })),
      maxConcurrent: receiver.maxConcurrent,
      callsTwice: receiver.starts.length - runs.size,
    };
  } finally {
    await receiver.stop();
    await queues.stop();
    await dropTable(table);
  }
}

/**
 * Part 4: lag under load. Runs fall due faster than the bound (5 / receiver delay), so the queue
 * builds; the lag grows with the backlog until it drains.
 */
async function lagUnderLoadFigures(
  endpoint: string,
  workflows: number,
  spreadSeconds: number,
  receiverDelayMs: number,
): Promise<LoadLagFigures> {
  const start = Date.now() + 5_000;
  const run = await realClockRun(
    endpoint,
    receiverDelayMs,
    (url) =>
      Array.from({ length: workflows }, (_, index) =>
        benchWorkflow({
          webhookUrl: url,
          // Long interval: each workflow falls due once within the run.
          cronInterval: 60,
          cronNextRun: new Date(start + (index / workflows) * spreadSeconds * 1000).toISOString(),
        }),
      ),
    (calls) => calls >= workflows,
    (spreadSeconds + workflows / 10 + 180) * 1000,
  );
  const lags = run.calls.map((call) => call.at - call.due).sort((a, b) => a - b);
  const lastStart = Math.max(...run.calls.map((call) => call.at));
  return {
    workflows,
    spreadSeconds,
    receiverDelayMs,
    arrivalPerSecond: workflows / spreadSeconds,
    boundPerSecond: GLOBAL_SCHEDULING.maxConcurrentWorkflows / (receiverDelayMs / 1000),
    p50Ms: percentile(lags, 50),
    p99Ms: percentile(lags, 99),
    maxMs: lags[lags.length - 1] ?? 0,
    maxBacklog: maxBacklogOf(run.calls),
    drainSeconds: (lastStart - (start + spreadSeconds * 1000)) / 1000,
    callsTwice: run.callsTwice,
  };
}

/**
 * Part 5: the product's mix. Workflows on the intervals the product gives (1 minute for client
 * reminders and document classification, 2 for client management), first due at scattered times,
 * recurring on the real clock for a few minutes; lag of every call.
 */
async function mixFigures(
  endpoint: string,
  workflows: number,
  minutes: number,
  receiverDelayMs: number,
): Promise<MixFigures> {
  const start = Date.now() + 5_000;
  const end = start + minutes * 60_000;
  const oneMinute = Math.round((workflows * 2) / 3);
  const run = await realClockRun(
    endpoint,
    receiverDelayMs,
    (url) =>
      Array.from({ length: workflows }, (_, index) => {
        const interval = index < oneMinute ? 1 : 2;
        return benchWorkflow({
          webhookUrl: url,
          type: interval === 1 ? 'client_reminder' : 'client_management',
          cronInterval: interval,
          cronNextRun: new Date(start + Math.random() * interval * 60_000).toISOString(),
        });
      }),
    () => Date.now() >= end,
    (minutes + 2) * 60_000,
  );
  // Only the calls due within the window: later ones were cut short by its end.
  const calls = run.calls.filter((call) => call.due < end - 30_000);
  const lags = calls.map((call) => call.at - call.due).sort((a, b) => a - b);
  const expectedCalls = Math.round(
    oneMinute * (minutes - 0.5) + (workflows - oneMinute) * ((minutes - 0.5) / 2),
  );
  return {
    workflows,
    oneMinute,
    twoMinutes: workflows - oneMinute,
    minutes,
    receiverDelayMs,
    calls: calls.length,
    expectedCalls,
    callsPerSecond: run.calls.length / (minutes * 60),
    p50Ms: percentile(lags, 50),
    p99Ms: percentile(lags, 99),
    maxMs: lags[lags.length - 1] ?? 0,
    maxBacklog: maxBacklogOf(run.calls),
    early: lags.filter((lag) => lag < 0).length,
    callsTwice: run.callsTwice,
  };
}

export interface SchedulerBenchOptions {
  readonly endpoint: string;
  /** DynamoDB Local's process: its CPU per worker message is reported. */
  readonly emulatorPid?: number;
  readonly sizes: readonly number[];
  readonly throughputCalls: number;
  readonly receiverDelayMs: number;
  readonly lagWorkflows: number;
  readonly lagSpreadSeconds: number;
  /** Lag under load: this many runs due within `loadSpreadSeconds`, faster than the bound. */
  readonly loadWorkflows: number;
  readonly loadSpreadSeconds: number;
  /** The product's mix: this many workflows on 1- and 2-minute intervals for `mixMinutes`. */
  readonly mixWorkflows: number;
  readonly mixMinutes: number;
  readonly log: (line: string) => void;
}

/** The scheduler benchmark: the three parts in one run, against one DynamoDB Local. */
export async function runSchedulerBench(options: SchedulerBenchOptions): Promise<SchedulerBenchFigures> {
  const ticks: TickFigures[] = [];
  for (const size of options.sizes) {
    options.log(`Tick du planificateur, ${size} automatisations dont 1 % dues...`);
    ticks.push(await tickFigures(options.endpoint, size, options.log));
  }
  options.log(
    `Débit : ${options.throughputCalls} appels, récepteur à ${options.receiverDelayMs} ms, 5 en parallèle...`,
  );
  const { atOnce: throughput, alone: throughputAlone } = await throughputFigures(
    options.endpoint,
    options.throughputCalls,
    options.receiverDelayMs,
    options.emulatorPid,
  );
  options.log(
    `Retard : ${options.lagWorkflows} automatisations dues dans les ${options.lagSpreadSeconds} s (horloge réelle)...`,
  );
  const lag = await lagFigures(options.endpoint, options.lagWorkflows, options.lagSpreadSeconds);
  options.log(
    `Retard sous charge : ${options.loadWorkflows} exécutions dues en ${options.loadSpreadSeconds} s, récepteur à ${options.receiverDelayMs} ms...`,
  );
  const lagUnderLoad = await lagUnderLoadFigures(
    options.endpoint,
    options.loadWorkflows,
    options.loadSpreadSeconds,
    options.receiverDelayMs,
  );
  options.log(
    `Mélange du produit : ${options.mixWorkflows} automatisations à 1 et 2 minutes pendant ${options.mixMinutes} min...`,
  );
  const mix = await mixFigures(
    options.endpoint,
    options.mixWorkflows,
    options.mixMinutes,
    options.receiverDelayMs,
  );
  return { ticks, throughput, throughputAlone, lag, lagUnderLoad, mix };
}

const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The figures as Markdown tables (printed, and written to bench/results.md). */
export { format as formatFigure, markdownTable };

/** What the two rows say together, under the table. */
export const THROUGHPUT_READING = [
  '90 % of the bound leaves a message 22 ms beside the 200 ms receiver. Each invocation calls its',
  "batch's webhooks one after the other and makes a message's reads and writes while its",
  "neighbours are called: what is left between two calls is the batch's first reads and last",
  "writes. One invocation at a time, no other invocation's calls wait at the emulator before its own.",
].join(' ');

/**
 * The throughput figure's table (the worker part's, or `npm run bench -- throughput` alone): the 5
 * at once, then one at a time.
 */
export function throughputMarkdown(runs: readonly ThroughputFigures[]): string {
  return markdownTable(
    [
      'at once',
      'records per invocation',
      'calls',
      'receiver delay',
      'duration',
      'calls/s',
      'bound at once/delay (reached)',
      'max concurrent seen',
      'time per message',
      'DynamoDB calls per message',
      'time per DynamoDB read / write',
      'CPU per message: DynamoDB Local / bench process',
    ],
    runs.map((run) => [
      format(run.atOnce),
      format(run.recordsPerInvocation, 1),
      format(run.calls),
      `${run.receiverDelayMs} ms`,
      `${format(run.seconds, 1)} s`,
      format(run.callsPerSecond, 1),
      `${format(run.boundPerSecond, 1)} (${format((100 * run.callsPerSecond) / run.boundPerSecond)} %)`,
      format(run.maxConcurrent),
      `${format(run.msPerMessage)} ms`,
      format(run.dynamoCallsPerMessage, 1),
      `${format(run.msPerDynamoCall.read, 1)} / ${format(run.msPerDynamoCall.write, 1)} ms`,
      `${run.emulatorCpuMsPerMessage === null ? 'not measured' : `${format(run.emulatorCpuMsPerMessage, 1)} ms`} / ${format(run.benchCpuMsPerMessage, 1)} ms`,
    ]),
  );
}

export function schedulerBenchMarkdown(figures: SchedulerBenchFigures): string {
  const { throughput, throughputAlone, lag } = figures;
  return [
    '### Scheduler tick: due index against a Scan',
    '',
    figures.ticks.length === 0
      ? 'Not run in this run (`npm run bench -- ticks`).'
      : markdownTable(
          [
            'workflows',
            'due',
            'items read (index)',
            'read (index, ms)',
            'items read (Scan)',
            'read (Scan, ms)',
            'items read Scan/index',
            'time Scan/index',
            'full index tick, ms (read + claims + SQS)',
          ],
          figures.ticks.map((tick) => [
            format(tick.workflows),
            format(tick.due),
            format(tick.indexItemsRead),
            format(tick.indexReadMs, 1),
            format(tick.scanItemsRead),
            format(tick.scanReadMs, 1),
            `${format(tick.scanItemsRead / Math.max(1, tick.indexItemsRead), 1)}×`,
            `${format(tick.scanReadMs / Math.max(0.001, tick.indexReadMs), 1)}×`,
            `${format(tick.indexTickMs)} (${format(tick.processed)} processed)`,
          ]),
        ),
    '',
    '### Dispatch throughput (worker + poller, 5 invocations at once, then one)',
    '',
    throughputMarkdown([throughput, throughputAlone]),
    '',
    THROUGHPUT_READING,
    '',
    '### Dispatch lag (due time → call start, real clock, one-minute timer)',
    '',
    markdownTable(
      ['workflows', 'due times spread over', 'p50', 'p99', 'max', 'calls early'],
      [
        [
          format(lag.workflows),
          `${lag.spreadSeconds} s`,
          `${format(lag.p50Ms)} ms`,
          `${format(lag.p99Ms)} ms`,
          `${format(lag.maxMs)} ms`,
          format(lag.early),
        ],
      ],
    ),
    '',
    '',
    `### Dispatch lag under load (runs due faster than the bound, receiver ${figures.lagUnderLoad.receiverDelayMs} ms)`,
    '',
    markdownTable(
      [
        'runs due',
        'within',
        'arrival',
        'bound',
        'p50',
        'p99',
        'max',
        'most waiting at once',
        'drained after the last due',
        'runs called twice',
      ],
      [
        [
          format(figures.lagUnderLoad.workflows),
          `${figures.lagUnderLoad.spreadSeconds} s`,
          `${format(figures.lagUnderLoad.arrivalPerSecond, 1)}/s`,
          `${format(figures.lagUnderLoad.boundPerSecond, 1)}/s`,
          `${format(figures.lagUnderLoad.p50Ms)} ms`,
          `${format(figures.lagUnderLoad.p99Ms)} ms`,
          `${format(figures.lagUnderLoad.maxMs)} ms`,
          format(figures.lagUnderLoad.maxBacklog),
          `${format(figures.lagUnderLoad.drainSeconds, 1)} s`,
          format(figures.lagUnderLoad.callsTwice),
        ],
      ],
    ),
    '',
    `### The product's mix (1- and 2-minute intervals, real clock, receiver ${figures.mix.receiverDelayMs} ms)`,
    '',
    markdownTable(
      [
        'workflows',
        '1 min / 2 min',
        'duration',
        'calls (expected)',
        'calls/s',
        'p50',
        'p99',
        'max',
        'most waiting at once',
        'calls early',
        'runs called twice',
      ],
      [
        [
          format(figures.mix.workflows),
          `${format(figures.mix.oneMinute)} / ${format(figures.mix.twoMinutes)}`,
          `${figures.mix.minutes} min`,
          `${format(figures.mix.calls)} (${format(figures.mix.expectedCalls)})`,
          format(figures.mix.callsPerSecond, 1),
          `${format(figures.mix.p50Ms)} ms`,
          `${format(figures.mix.p99Ms)} ms`,
          `${format(figures.mix.maxMs)} ms`,
          format(figures.mix.maxBacklog),
          format(figures.mix.early),
          format(figures.mix.callsTwice),
        ],
      ],
    ),
  ].join('\n');
}
