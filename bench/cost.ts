import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { build } from 'esbuild';
import { generateWebhookSecret } from '../functions/adapters/scheduling/webhook-signature';
import type { Table } from '../functions/data/table/table';
import { type MetricName, RecordedMetrics } from '../functions/domain/core/metrics';
import type { Clock, Logger } from '../functions/domain/core/ports';
import type { ShardClaimRequest } from '../functions/domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../functions/handlers/scheduling/due-claimer';
import { createScheduledTickHandler } from '../functions/handlers/scheduling/scheduled-tick';
import { createWebhookWorkerHandler } from '../functions/handlers/scheduling/webhook-worker';
import { handlerPathOf, NEEDS } from '../functions/needs';
import type { AppDependencies } from '../functions/runtime/dependencies';
import { systemClock } from '../functions/runtime/dependencies';
import { inProcessClaimers } from '../functions/runtime/in-process-claimers';
import { esbuildOptionsOf } from '../lib/constructs/bundling';
import { repositoryPath } from '../lib/constructs/repository';
import { startLocalQueues } from '../lib/local/queue/local-queues';
import { startQueuePoller } from '../lib/local/queue/poller';
import {
  type CapacityMeter,
  type CapacitySum,
  countSqsRequests,
  type MeteredCall,
  meterTable,
  type SqsRequestCounter,
  sumOf,
} from './capacity';
import { startBenchReceiver } from './receiver';
import { batchWrite, benchTable, benchWorkflow, dropTable, itemsOf } from './scheduler';

/**
 * `npm run bench -- cost`: what a delivered run and an idle minute cost, measured. Every DynamoDB
 * call of the tick, its claimers and the worker is metered (`capacity.ts`: the units DynamoDB
 * Local counts, indexes included, and one write unit for each refused condition), every SQS request
 * counted, every invocation timed, every log line's bytes added up. The runs belong to as many firms
 * as there are automations: at the target's scale (10,000 firms, 2,222 runs a second) a batch of the
 * queue almost never holds two runs of one firm, so what a firm's runs could share in a batch is not
 * counted as shared here either.
 */

/** Memory of a function in AWS (MB): its own setting, else `AppFunction`'s default. */
export const FUNCTION_MEMORY_MB = {
  default: 512,
  worker: NEEDS['webhook-worker'].memoryMb ?? 512,
} as const;

/** Memory at which Lambda gives a function one full vCPU; less memory, a share of one in proportion. */
const MB_PER_VCPU = 1_769;

/** Bytes Lambda writes per invocation besides the function's lines (START, END, REPORT in JSON). */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 600;

/** A logger that keeps nothing but the bytes its lines would weigh in CloudWatch Logs. */
class WeighingLogger implements Logger {
  bytes = 0;
  lines = 0;
  constructor(private readonly envelopeBytes: number) {}
  private weigh = (message: string, facts: Record<string, unknown> = {}) => {
    this.lines += 1;
    this.bytes += this.envelopeBytes + Buffer.byteLength(JSON.stringify({ message, ...facts }));
  };
  // Lambda logs at INFO: a debug line is never written.
  debug = () => undefined;
  info = this.weigh;
  warn = this.weigh;
  error = this.weigh;
}

/**
 * The bytes Powertools' Logger adds around a line in Lambda (level, time, service, function name,
 * ARN, memory, request id, cold start, trace id), measured on the real logger.
 */
function powertoolsEnvelopeBytes(): number {
  let written = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  const logger = new PowertoolsLogger({ serviceName: 'assistant-juridique' });
  (logger as unknown as { console: Console }).console = new console.Console({ stdout: sink, stderr: sink });
  logger.addContext({
    functionName: 'AssistantJuridique-prod-DeliveryWorker3F2A1B0C-AbCdEfGhIjKl',
    functionVersion: '$LATEST',
    invokedFunctionArn:
      'arn:aws:lambda:eu-west-3:123456789012:function:AssistantJuridique-prod-DeliveryWorker3F2A1B0C-AbCdEfGhIjKl',
    memoryLimitInMB: '512',
    awsRequestId: '8f5e2c1a-0b7d-4c3e-9a61-2f4d5b6c7d8e',
    logGroupName: '/aws/lambda/AssistantJuridique-prod-DeliveryWorker',
    logStreamName: '2026/11/27/[$LATEST]0123456789abcdef0123456789abcdef',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  });
  process.env._X_AMZN_TRACE_ID = 'Root=1-67a1b2c3-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=1';
  logger.info('x');
  delete process.env._X_AMZN_TRACE_ID;
  return Math.max(0, Buffer.byteLength(written) - Buffer.byteLength(JSON.stringify({ message: 'x' })));
}

interface CostWorld {
  readonly deps: AppDependencies;
  readonly meter: CapacityMeter;
  readonly sqs: SqsRequestCounter;
  readonly logger: WeighingLogger;
  readonly metrics: RecordedMetrics;
  /** Milliseconds of each claimer invocation (coordinator apart). */
  readonly claimerMs: number[];
  readonly stop: () => Promise<void>;
  readonly queues: Awaited<ReturnType<typeof startLocalQueues>>;
  readonly table: Table;
}

async function costWorld(endpoint: string, clock: Clock = systemClock): Promise<CostWorld> {
  const table = await benchTable(endpoint);
  const queues = await startLocalQueues();
  const meter = meterTable(table);
  const sqs = countSqsRequests(queues.client);
  const logger = new WeighingLogger(powertoolsEnvelopeBytes());
  const metrics = new RecordedMetrics();
  const claimers = inProcessClaimers(logger, { wait: true });
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
    clock,
    logger,
    metrics,
    lawyerSecrets: {
      put: () => Promise.reject(new Error('Pas de secrets dans le banc')),
      get: async () => null,
      delete: async () => undefined,
    },
    webhookQueue: queues.dispatchQueue,
    dueClaimers: claimers.claimers,
    webhookSigningSecret: async () => secret,
    allowPrivateWebhooks: true,
    publicApiUrl: () => 'http://localhost:3000',
  };
  const claimerMs: number[] = [];
  const claim = createDueClaimerHandler(deps);
  // One claimer at a time: in Lambda each has its own environment, so its duration is its own
  // calls', not also those of the 63 others sharing this process.
  let previous: Promise<unknown> = Promise.resolve();
  claimers.bind((request: ShardClaimRequest) => {
    const turn = previous.then(async () => {
      const started = performance.now();
      try {
        return await claim(request);
      } finally {
        claimerMs.push(performance.now() - started);
      }
    });
    previous = turn.catch(() => undefined);
    return turn;
  });
  return {
    deps,
    meter,
    sqs,
    logger,
    metrics,
    claimerMs,
    queues,
    table,
    stop: async () => {
      await queues.stop();
      await dropTable(table);
    },
  };
}

/** Units, requests and time of one minute tick, in AWS terms. */
export interface TickCost {
  readonly dynamo: CapacitySum;
  /** Its DynamoDB calls, one by one. */
  readonly calls: readonly MeteredCall[];
  /** The coordinator and one claimer per shard. */
  readonly lambdaRequests: number;
  readonly lambdaGbSeconds: number;
  readonly sqsRequests: number;
  readonly logBytes: number;
  /** Distinct metrics the tick published (each a custom metric in CloudWatch). */
  readonly metricsPublished: number;
  /** Runs the tick queued. */
  readonly queued: number;
}

const gb = (mb: number) => mb / 1024;

async function measureTick(world: CostWorld): Promise<TickCost> {
  const mark = world.meter.mark();
  const sqsBefore = world.sqs.snapshot();
  const logBefore = world.logger.bytes;
  const queuedBefore = world.metrics.countOf('DueEnqueued' as MetricName);
  world.claimerMs.length = 0;
  const started = performance.now();
  await createScheduledTickHandler(world.deps)({});
  const claimersMs = world.claimerMs.reduce((sum, ms) => sum + ms, 0);
  // The claimers run one after the other: the coordinator's own time is what they leave.
  const coordinatorMs = Math.max(0, performance.now() - started - claimersMs);
  const claimers = world.claimerMs.length;
  const calls = world.meter.since(mark);
  return {
    dynamo: sumOf(calls),
    calls,
    lambdaRequests: 1 + claimers,
    lambdaGbSeconds: ((coordinatorMs + claimersMs) / 1000) * gb(FUNCTION_MEMORY_MB.default),
    sqsRequests: total(world.sqs.since(sqsBefore)),
    logBytes: world.logger.bytes - logBefore + (1 + claimers) * PLATFORM_LOG_BYTES_PER_INVOCATION,
    metricsPublished: [...world.metrics.counts.keys()].length,
    queued: world.metrics.countOf('DueEnqueued' as MetricName) - queuedBefore,
  };
}

/** The milliseconds of `window` during which at least one of `calls` was in flight. */
function inFlightMs(calls: readonly MeteredCall[], window: { startedAt: number; endedAt: number }): number {
  const spans = calls
    .map(
      (call) => [Math.max(call.startedAt, window.startedAt), Math.min(call.endedAt, window.endedAt)] as const,
    )
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reached = window.startedAt;
  for (const [from, to] of spans) {
    if (to <= reached) continue;
    total += to - Math.max(from, reached);
    reached = to;
  }
  return total;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor((sorted.length - 1) / 2)] ?? 0);
};

const total = (requests: ReadonlyMap<string, number>) =>
  [...requests.values()].reduce((sum, count) => sum + count, 0);

/** What a delivered run costs, claim and delivery, in AWS terms. */
export interface RunCost {
  readonly runs: number;
  readonly firms: number;
  readonly receiverDelayMs: number;
  readonly memoryMb: number;
  /** The tick that queued the runs, per run it queued. */
  readonly claim: { readonly readUnits: number; readonly writeUnits: number; readonly calls: number };
  /** Writes of the last result's listed runs (at most 10 a shard a tick), in this tick: not per run. */
  readonly lastResultWrites: number;
  /** The worker, per run delivered. */
  readonly worker: { readonly readUnits: number; readonly writeUnits: number; readonly calls: number };
  /** Units per run of each DynamoDB command the worker sent. */
  readonly workerByCommand: readonly {
    readonly command: string;
    readonly calls: number;
    readonly writeUnits: number;
    readonly readUnits: number;
  }[];
  readonly invocations: number;
  readonly recordsPerInvocation: number;
  /** Billed milliseconds per run: each invocation's duration, rounded up to the millisecond as Lambda bills it, shared by its records. */
  readonly invocationMsPerRun: number;
  /** The median invocation's duration, and the part of it some DynamoDB call of it was in flight (the emulator's latency, not AWS's). */
  readonly invocationMsMedian: number;
  readonly dynamoWaitMsMedian: number;
  /** Memory × billed duration ÷ runs: what Lambda bills the worker for a run. */
  readonly gbSecondsPerRun: number;
  /**
   * CPU (user + system) of this process during an invocation, median: the worker's, and also the
   * in-process receiver's and queue's share (an upper bound of the worker's own).
   */
  readonly cpuMsPerInvocationMedian: number;
  /** The same CPU at the share of a vCPU Lambda gives the worker's memory. */
  readonly cpuMsAtMemoryMedian: number;
  /** GB-s a run would bill if that CPU alone set the invocations' durations at the worker's memory. */
  readonly cpuBoundGbSecondsPerRun: number;
  /** This process's heap in use, at most, after an invocation, above what it held before the first. */
  readonly heapGrowthMbMax: number;
  /** A fresh `node` process holding the worker's bundle as `cdk synth` builds it, and its imports. */
  readonly coldRssMb: number;
  /**
   * The claim at the mix (`MIX_INTERVALS_MINUTES`): the units of a tick claiming as many
   * automations of each interval, divided by the runs it queued (a claim takes every run of the
   * next ten minutes: a one-minute automation's ten, a two-minute one's five).
   */
  readonly claimAtMix: {
    readonly readUnits: number;
    readonly writeUnits: number;
    readonly calls: number;
    readonly claims: number;
    readonly runsQueued: number;
  };
  /** SQS requests per run by action, and in all (the claim's sends included). */
  readonly sqsByAction: ReadonlyMap<string, number>;
  readonly sqsPerRun: number;
  readonly logBytesPerRun: number;
}

/**
 * An idle tick measured first (after one that warms the handlers): the fixed part of a tick (64
 * shards read, the last result written) is the stage's idle cost, not the runs'; only what the runs
 * add is counted as theirs. Then the automations, due two seconds later, are written.
 */
async function idleThenDue(
  world: CostWorld,
  automations: (dueAt: string) => ReturnType<typeof benchWorkflow>[],
): Promise<TickCost> {
  await measureTick(world);
  const idle = await measureTick(world);
  const dueAt = new Date(Date.now() + 2_000).toISOString();
  await batchWrite(world.table, automations(dueAt).flatMap(itemsOf));
  return idle;
}

/**
 * One tick queues `runs` automations of as many firms, all due at once (so that the worker's
 * batches are full, as at scale), then the worker delivers them against a receiver answering in
 * `receiverDelayMs`; what each phase cost is divided by the runs it handled.
 */
export async function measureRunCost(
  endpoint: string,
  options: { readonly runs: number; readonly receiverDelayMs: number },
): Promise<RunCost> {
  const world = await costWorld(endpoint);
  const receiver = await startBenchReceiver(options.receiverDelayMs);
  try {
    // Hourly: a claim takes one run each, so the claim's units fall on one run (a one-minute
    // automation's claim takes ten runs and shares its units among them).
    const idle = await idleThenDue(world, (dueAt) =>
      Array.from({ length: options.runs }, () =>
        benchWorkflow({ webhookUrl: receiver.url, cronInterval: 60, cronNextRun: dueAt }),
      ),
    );
    const tick = await measureTick(world);
    const mark = world.meter.mark();
    const sqsBefore = world.sqs.snapshot();
    const logBefore = world.logger.bytes;
    const worker = createWebhookWorkerHandler(world.deps);
    const invocations: { startedAt: number; endedAt: number; cpuMs: number }[] = [];
    let records = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    let heapUsedMax = heapBefore;
    const poller = startQueuePoller({
      client: world.queues.client,
      queueUrl: world.queues.queueUrl,
      handler: async (event: SQSEvent): Promise<SQSBatchResponse> => {
        const startedAt = world.meter.now();
        const cpuBefore = process.cpuUsage();
        try {
          return await worker(event);
        } finally {
          const cpu = process.cpuUsage(cpuBefore);
          invocations.push({ startedAt, endedAt: world.meter.now(), cpuMs: (cpu.user + cpu.system) / 1000 });
          records += event.Records.length;
          heapUsedMax = Math.max(heapUsedMax, process.memoryUsage().heapUsed);
        }
      },
      // Lambda gives each invocation an environment of its own: one at a time here, so that an
      // invocation's duration is its own calls' and not also the others' sharing this process.
      maxConcurrency: 1,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: world.logger,
    });
    const deadline = Date.now() + 5 * 60_000;
    while (receiver.finished < options.runs) {
      if (Date.now() > deadline) throw new Error('Le banc des coûts n’a pas vu toutes ses exécutions');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await poller.stop();
    const runs = receiver.finished;
    // The last result's items (/admin/settings) take at most 10 runs of a shard each tick, whatever
    // the runs: a bounded cost of the tick, reported apart, not a part of every run's.
    const lastResult = (call: MeteredCall) => call.partition?.startsWith('SCHEDULER') === true;
    const allCalls = world.meter.since(mark);
    const calls = allCalls.filter((call) => !lastResult(call));
    const claimCalls = tick.calls.filter((call) => !lastResult(call));
    const idleClaimCalls = idle.calls.filter((call) => !lastResult(call));
    const byCommand = new Map<string, { calls: number; writeUnits: number; readUnits: number }>();
    for (const call of calls) {
      const entry = byCommand.get(call.command) ?? { calls: 0, writeUnits: 0, readUnits: 0 };
      entry.calls += 1;
      entry.writeUnits += call.writeUnits;
      entry.readUnits += call.readUnits;
      byCommand.set(call.command, entry);
    }
    const workerSum = sumOf(calls);
    const memoryMb = FUNCTION_MEMORY_MB.worker;
    const cpuMsMedian = median(invocations.map((invocation) => invocation.cpuMs));
    const invocationMs = invocations.map(({ startedAt, endedAt }) => Math.ceil(endedAt - startedAt));
    const invocationTotal = invocationMs.reduce((sum, ms) => sum + ms, 0);
    const dynamoWaitMs = invocations.map((invocation) => inFlightMs(allCalls, invocation));
    const queued = Math.max(1, tick.queued);
    const sqsByAction = new Map<string, number>();
    // The claim's sends (what the tick sent beyond an idle one), then the worker's requests.
    sqsByAction.set('SendMessageBatch', Math.max(0, tick.sqsRequests - idle.sqsRequests) / queued);
    for (const [action, count] of world.sqs.since(sqsBefore)) {
      if (count > 0) sqsByAction.set(action, (sqsByAction.get(action) ?? 0) + count / runs);
    }
    return {
      runs,
      firms: options.runs,
      receiverDelayMs: options.receiverDelayMs,
      memoryMb,
      claim: {
        readUnits: (sumOf(claimCalls).readUnits - sumOf(idleClaimCalls).readUnits) / queued,
        writeUnits: (sumOf(claimCalls).writeUnits - sumOf(idleClaimCalls).writeUnits) / queued,
        calls: (claimCalls.length - idleClaimCalls.length) / queued,
      },
      lastResultWrites:
        sumOf([...tick.calls, ...allCalls].filter(lastResult)).writeUnits -
        sumOf(idle.calls.filter(lastResult)).writeUnits,
      worker: {
        readUnits: workerSum.readUnits / runs,
        writeUnits: workerSum.writeUnits / runs,
        calls: workerSum.calls / runs,
      },
      workerByCommand: [...byCommand.entries()].map(([command, entry]) => ({
        command,
        calls: entry.calls / runs,
        writeUnits: entry.writeUnits / runs,
        readUnits: entry.readUnits / runs,
      })),
      invocations: invocationMs.length,
      recordsPerInvocation: records / Math.max(1, invocationMs.length),
      invocationMsPerRun: invocationTotal / runs,
      invocationMsMedian: median(invocationMs),
      dynamoWaitMsMedian: median(dynamoWaitMs),
      gbSecondsPerRun: ((invocationTotal / 1000) * gb(memoryMb)) / runs,
      cpuMsPerInvocationMedian: cpuMsMedian,
      cpuMsAtMemoryMedian: cpuMsMedian / Math.min(1, memoryMb / MB_PER_VCPU),
      cpuBoundGbSecondsPerRun:
        (invocations.reduce((sum, invocation) => sum + invocation.cpuMs, 0) /
          Math.min(1, memoryMb / MB_PER_VCPU) /
          1000) *
        (gb(memoryMb) / runs),
      heapGrowthMbMax: (heapUsedMax - heapBefore) / 2 ** 20,
      coldRssMb: await workerColdRssMb(),
      claimAtMix: await measureClaimAtMix(endpoint, options.runs),
      sqsByAction,
      sqsPerRun: [...sqsByAction.values()].reduce((sum, count) => sum + count, 0),
      logBytesPerRun:
        (world.logger.bytes - logBefore + invocationMs.length * PLATFORM_LOG_BYTES_PER_INVOCATION) / runs +
        Math.max(0, tick.logBytes - idle.logBytes) / queued,
    };
  } finally {
    await receiver.stop();
    await world.stop();
  }
}

/**
 * The resident memory (MB) of a fresh `node` process that imported the worker's bundle, built as
 * `cdk synth` builds it, and the SDK clients and Powertools utilities it leaves to Lambda (from the
 * repository's node_modules, standing in for the runtime's): the worker's footprint before a batch.
 */
async function workerColdRssMb(): Promise<number> {
  const dir = repositoryPath('.bench', 'cost-worker');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'index.mjs');
  const result = await build({
    ...esbuildOptionsOf('webhook-worker'),
    entryPoints: [repositoryPath(handlerPathOf('webhook-worker'))],
    outfile,
    metafile: true,
    write: true,
  });
  const externals = [
    ...new Set(
      Object.values(result.metafile.outputs).flatMap((output) =>
        output.imports.filter((i) => i.external).map((i) => i.path),
      ),
    ),
  ].filter((path) => path.startsWith('@aws-sdk/') || path.startsWith('@aws-lambda-powertools/'));
  const script = [
    `await import(${JSON.stringify(outfile)});`,
    `await Promise.all(${JSON.stringify(externals)}.map((m)=>import(m)));`,
    'console.log(process.memoryUsage().rss)',
  ].join('');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'eu-west-3' },
    cwd: repositoryPath(),
  });
  if (child.status !== 0) throw new Error(`Import du lot du worker impossible : ${child.stderr}`);
  return Number(child.stdout.trim()) / 2 ** 20;
}

/**
 * The intervals of the target's mix (minutes), as many automations of each: the product's 1- and
 * 2-minute automations (`bench/run.ts`'s scale scenario: a mean interval of 1.5 minutes).
 */
export const MIX_INTERVALS_MINUTES = [1, 2] as const;

/**
 * One tick claiming `automations` automations due now, as many of each interval of the mix: its
 * units beyond an idle tick's, divided by the runs it queued. A claim takes every run of the next
 * ten minutes, so this is what the claim adds to a run at the mix, the worker's part being the same
 * whatever the interval. The queued runs are not delivered (their delays run to ten minutes).
 */
async function measureClaimAtMix(endpoint: string, automations: number): Promise<RunCost['claimAtMix']> {
  const world = await costWorld(endpoint);
  try {
    const idle = await idleThenDue(world, (dueAt) =>
      Array.from({ length: automations }, (_, index) =>
        benchWorkflow({
          cronInterval: MIX_INTERVALS_MINUTES[index % MIX_INTERVALS_MINUTES.length],
          cronNextRun: dueAt,
        }),
      ),
    );
    const tick = await measureTick(world);
    const counted = (calls: readonly MeteredCall[]) =>
      sumOf(calls.filter((call) => call.partition?.startsWith('SCHEDULER') !== true));
    const claim = counted(tick.calls);
    const idleClaim = counted(idle.calls);
    // The tick counts the workflows it claimed; the runs are the messages on the queue, delayed or not.
    const { Attributes = {} } = await world.queues.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: world.queues.queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    const queued =
      Number(Attributes.ApproximateNumberOfMessages ?? 0) +
      Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
    const runsQueued = Math.max(1, queued);
    return {
      readUnits: (claim.readUnits - idleClaim.readUnits) / runsQueued,
      writeUnits: (claim.writeUnits - idleClaim.writeUnits) / runsQueued,
      calls: (claim.calls - idleClaim.calls) / runsQueued,
      claims: tick.queued,
      runsQueued: queued,
    };
  } finally {
    await world.stop();
  }
}

/** What a minute costs with no run due: the tick and its claimers reading empty shards. */
export async function measureIdleMinute(endpoint: string): Promise<TickCost> {
  const world = await costWorld(endpoint);
  try {
    // Automations scheduled, none due within the tick's reach: the shards are read, nothing claimed.
    const later = new Date(Date.now() + 30 * 60_000).toISOString();
    await batchWrite(
      world.table,
      Array.from({ length: 200 }, () =>
        itemsOf(benchWorkflow({ cronInterval: 60, cronNextRun: later })),
      ).flat(),
    );
    await measureTick(world); // compiled and warm, as a function that runs every minute is
    world.metrics.counts.clear();
    return await measureTick(world);
  } finally {
    await world.stop();
  }
}

/** The units `docs/operations.md` prices (`bench/cost-units.json`, read by `npm run docs:operations`). */
export interface MeasuredUnits {
  readonly lambdaGbSeconds: number;
  readonly lambdaRequests: number;
  readonly dynamoDbWriteUnits: number;
  readonly dynamoDbReadUnits: number;
  readonly sqsRequests: number;
  readonly logBytes: number;
}

export function idleMinuteUnits(idle: TickCost): MeasuredUnits {
  return {
    lambdaGbSeconds: idle.lambdaGbSeconds,
    lambdaRequests: idle.lambdaRequests,
    dynamoDbWriteUnits: idle.dynamo.writeUnits,
    dynamoDbReadUnits: idle.dynamo.readUnits,
    sqsRequests: idle.sqsRequests,
    logBytes: idle.logBytes,
  };
}

/**
 * A run's units: with its own claim by default (an hourly automation's: one run a claim, what
 * `docs/operations.md` prices for its reference firm), or with the claim's share at the mix.
 */
export function runUnits(run: RunCost, claim: 'own' | 'atMix' = 'own'): MeasuredUnits {
  const claimed = claim === 'own' ? run.claim : run.claimAtMix;
  return {
    lambdaGbSeconds: run.gbSecondsPerRun,
    lambdaRequests: 1 / Math.max(1, run.recordsPerInvocation),
    dynamoDbWriteUnits: claimed.writeUnits + run.worker.writeUnits,
    dynamoDbReadUnits: claimed.readUnits + run.worker.readUnits,
    sqsRequests: run.sqsPerRun,
    logBytes: run.logBytesPerRun,
  };
}

/** The worker's declared memory, for the record (its needs do not carry it). */
export const WORKER_NEEDS = NEEDS['webhook-worker'];

/** `bench/cost-units.json`: what the parts measured last, each part writing its own keys. */
export interface CostUnitsFile {
  readonly perIdleMinute: MeasuredUnits;
  readonly perRun: MeasuredUnits;
  /** The custom metrics a stage publishes at rest (the tick's), each billed as a metric-month. */
  readonly metricsPublishedAtRest: number;
  /** DynamoDB units of an API request, the mean of those the API part measures. */
  readonly perApiRequest?: { readonly readUnits: number; readonly writeUnits: number };
}

const COST_UNITS = fileURLToPath(new URL('./cost-units.json', import.meta.url));

/** Writes the keys a part measured into `bench/cost-units.json`, keeping the others; returns the whole. */
export function writeCostUnits(measured: Partial<CostUnitsFile>): CostUnitsFile {
  const current = existsSync(COST_UNITS)
    ? (JSON.parse(readFileSync(COST_UNITS, 'utf8')) as CostUnitsFile)
    : {};
  const next = { ...current, ...measured } as CostUnitsFile;
  writeFileSync(COST_UNITS, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
