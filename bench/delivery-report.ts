import { SIGN_IN_THROTTLE } from '../shared/constants';
import type { ApiCallsFigures, RequestFigures } from './api-calls';
import { before, beforeHeading } from './baseline';
import type { RunCost, TickCost } from './cost';
import { type FirmCostLine, firmTotal, PRICES, TARGET_MIX } from './cost-model';
import type { LagFigures } from './lag';
import type { BenchTarget } from './results-file';
import { markdownTable } from './results-file';

/**
 * The delivery work's figures as bench/results.md shows them: each beside its target and beside
 * the same figure measured before (`bench/baseline.json`), with the flat figures a baseline records.
 */

const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const shown = (value: number | string | null, digits: number) =>
  value === null ? 'not measured' : typeof value === 'string' ? value : format(value, digits);

// ---------------------------------------------------------------------------- cost

export function costFigures(run: RunCost, idle: TickCost): Record<string, number> {
  return {
    writeUnitsPerRun: run.claimAtMix.writeUnits + run.worker.writeUnits,
    readUnitsPerRun: run.claimAtMix.readUnits + run.worker.readUnits,
    claimAtMixWriteUnits: run.claimAtMix.writeUnits,
    claimAtMixReadUnits: run.claimAtMix.readUnits,
    hourlyRunWriteUnits: run.claim.writeUnits + run.worker.writeUnits,
    claimWriteUnits: run.claim.writeUnits,
    claimReadUnits: run.claim.readUnits,
    workerWriteUnits: run.worker.writeUnits,
    workerReadUnits: run.worker.readUnits,
    dynamoCallsPerRun: run.claimAtMix.calls + run.worker.calls,
    gbSecondsPerRun: run.gbSecondsPerRun,
    invocationMsPerRun: run.invocationMsPerRun,
    invocationMsMedian: run.invocationMsMedian,
    dynamoWaitMsMedian: run.dynamoWaitMsMedian,
    memoryMb: run.memoryMb,
    cpuMsPerInvocationMedian: run.cpuMsPerInvocationMedian,
    cpuMsAtMemoryMedian: run.cpuMsAtMemoryMedian,
    cpuBoundGbSecondsPerRun: run.cpuBoundGbSecondsPerRun,
    heapGrowthMbMax: run.heapGrowthMbMax,
    coldRssMb: run.coldRssMb,
    recordsPerInvocation: run.recordsPerInvocation,
    sqsPerRun: run.sqsPerRun,
    logBytesPerRun: run.logBytesPerRun,
    idleWriteUnits: idle.dynamo.writeUnits,
    idleReadUnits: idle.dynamo.readUnits,
    idleCalls: idle.dynamo.calls,
    idleGbSeconds: idle.lambdaGbSeconds,
    idleLambdaRequests: idle.lambdaRequests,
  };
}

export function costTargets(run: RunCost): BenchTarget[] {
  const writes = run.claimAtMix.writeUnits + run.worker.writeUnits;
  const reads = run.claimAtMix.readUnits + run.worker.readUnits;
  return [
    {
      figure: 'DynamoDB write units per delivered run at the mix (claim + worker, measured)',
      target: '≤ 6',
      measured: format(writes, 2),
      met: writes <= 6,
    },
    {
      figure: 'DynamoDB read units per delivered run at the mix (claim + worker, measured)',
      target: '≤ 2',
      measured: format(reads, 2),
      met: reads <= 2,
    },
    {
      figure: `worker GB-s per delivered run, ${run.receiverDelayMs} ms receiver, ${run.memoryMb} MB`,
      target: '≤ 0.04',
      measured: format(run.gbSecondsPerRun, 4),
      met: run.gbSecondsPerRun <= 0.04,
    },
    {
      figure: 'SQS requests per delivered run',
      target: 'reported',
      measured: format(run.sqsPerRun, 2),
      met: null,
    },
  ];
}

export function costMarkdown(run: RunCost, idle: TickCost): string {
  const b = (figure: string, digits: number) => shown(before('cost', figure), digits);
  const now = costFigures(run, idle);
  const row = (label: string, figure: string, digits: number, target: string) => [
    label,
    b(figure, digits),
    format(now[figure] ?? 0, digits),
    target,
  ];
  return [
    `${format(run.runs)} runs of as many firms queued by one tick and delivered by the worker (batches of up to`,
    `${format(run.recordsPerInvocation, 1)} records on average here), receiver answering in ${run.receiverDelayMs} ms. Units are what`,
    'DynamoDB Local reports with `ReturnConsumedCapacity: INDEXES` on every call (`bench/capacity.ts`), a refused',
    "condition counted as one write unit; a tick's fixed part (64 shards read, its last result written) is the",
    "idle minute's, below, not the runs'. Worker GB-s: the memory times each invocation's duration rounded up",
    'to the millisecond (what Lambda bills), divided by the runs it delivered; the invocations run one at a',
    "time, as each has its own environment in Lambda. Their duration holds the receiver's 200 ms (the calls of a",
    "batch side by side) and the emulator's latency on this machine, shown apart. The worker's CPU is this",
    "process's during an invocation (the in-process receiver and queue with it: an upper bound), also shown",
    'at the share of a vCPU Lambda gives its memory (1,769 MB a vCPU); its memory, a fresh process holding',
    'its bundle and what an invocation adds to the heap at most.',
    '',
    `A run's claim is shared by every run it takes. At the mix (${format(run.claimAtMix.claims)} automations due, half every`,
    `minute, half every two minutes, claimed by one tick: ${format(run.claimAtMix.runsQueued)} runs queued, as a claim takes every`,
    "run of the next ten minutes) a run's share is the tick's units divided by the runs it queued; the",
    "worker's part, measured on the 300 runs, is the same whatever the interval. The per-run totals and",
    "the firm's month below are at the mix; an hourly automation's run (one run a claim) is shown apart.",
    '',
    markdownTable(
      ['per delivered run', beforeHeading(), 'now', 'target'],
      [
        row('DynamoDB write units', 'writeUnitsPerRun', 2, '≤ 6'),
        row('DynamoDB read units', 'readUnitsPerRun', 2, '≤ 2'),
        row('  of which the claim at the mix: write / read', 'claimAtMixWriteUnits', 2, ''),
        row('  of which the worker: write', 'workerWriteUnits', 2, ''),
        row('  of which the worker: read', 'workerReadUnits', 2, ''),
        row('DynamoDB calls', 'dynamoCallsPerRun', 2, 'reported'),
        row('worker GB-s', 'gbSecondsPerRun', 4, '≤ 0.04'),
        row('worker billed ms per run (invocation ÷ its records)', 'invocationMsPerRun', 1, 'reported'),
        row('worker invocation, median ms', 'invocationMsMedian', 0, 'reported'),
        row('  of which a DynamoDB Local call in flight, median ms', 'dynamoWaitMsMedian', 0, 'reported'),
        row('worker memory, MB', 'memoryMb', 0, ''),
        row(
          'worker CPU per invocation, median ms (this machine, one core)',
          'cpuMsPerInvocationMedian',
          1,
          'reported',
        ),
        row('  the same at the memory’s share of a vCPU, ms', 'cpuMsAtMemoryMedian', 1, 'reported'),
        row('worker GB-s if that CPU alone set the duration', 'cpuBoundGbSecondsPerRun', 4, '≤ 0.04'),
        row(
          'worker at rest: resident memory of a fresh process with its bundle, MB',
          'coldRssMb',
          0,
          'reported',
        ),
        row('heap added by an invocation, most (the bench process), MB', 'heapGrowthMbMax', 0, 'reported'),
        row(
          'write units of an hourly automation’s run (one run a claim)',
          'hourlyRunWriteUnits',
          2,
          'reported',
        ),
        row('  of which its claim: write / read', 'claimWriteUnits', 2, ''),
        row('SQS requests', 'sqsPerRun', 2, 'reported'),
        row('log bytes (Powertools lines and Lambda platform lines)', 'logBytesPerRun', 0, 'reported'),
      ].map((cells) =>
        cells[0] === '  of which the claim at the mix: write / read'
          ? [
              cells[0],
              `${b('claimAtMixWriteUnits', 2)} / ${b('claimAtMixReadUnits', 2)}`,
              `${format(run.claimAtMix.writeUnits, 2)} / ${format(run.claimAtMix.readUnits, 2)}`,
              '',
            ]
          : cells[0] === '  of which its claim: write / read'
            ? [
                cells[0],
                `${b('claimWriteUnits', 2)} / ${b('claimReadUnits', 2)}`,
                `${format(run.claim.writeUnits, 2)} / ${format(run.claim.readUnits, 2)}`,
                '',
              ]
            : cells,
      ),
    ),
    '',
    `The last result's listed runs (/admin/settings: at most 10 a shard a tick, whatever the runs) took`,
    `${format(run.lastResultWrites)} write units in this tick: a bounded cost of the tick, not counted per run.`,
    '',
    "The worker's DynamoDB calls per delivered run, by command:",
    '',
    markdownTable(
      ['command', 'calls', 'write units', 'read units'],
      run.workerByCommand.map((entry) => [
        entry.command,
        format(entry.calls, 2),
        format(entry.writeUnits, 2),
        format(entry.readUnits, 2),
      ]),
    ),
    '',
    "SQS requests per delivered run, by action (the claim's sends, then the worker's event source as the",
    "local poller plays it: receives, deletes; and the worker's own):",
    '',
    markdownTable(
      ['action', 'requests per run'],
      [...run.sqsByAction].map(([action, count]) => [action, format(count, 3)]),
    ),
    '',
    '### An idle minute (one tick, nothing due)',
    '',
    markdownTable(
      ['per minute', beforeHeading(), 'now'],
      [
        ['DynamoDB write units', b('idleWriteUnits', 1), format(idle.dynamo.writeUnits, 1)],
        ['DynamoDB read units', b('idleReadUnits', 1), format(idle.dynamo.readUnits, 1)],
        ['DynamoDB calls', b('idleCalls', 0), format(idle.dynamo.calls)],
        ['Lambda invocations', b('idleLambdaRequests', 0), format(idle.lambdaRequests)],
        ['Lambda GB-s', b('idleGbSeconds', 2), format(idle.lambdaGbSeconds, 2)],
      ],
    ),
  ].join('\n');
}

// ---------------------------------------------------------------------------- lag

export function lagFigures(lag: LagFigures): Record<string, number> {
  return Object.fromEntries(
    lag.groups.flatMap((group) => [
      [`p50Ms${group.intervalMinutes}`, group.p50Ms],
      [`p99Ms${group.intervalMinutes}`, group.p99Ms],
      [`maxMs${group.intervalMinutes}`, group.maxMs],
      [`calls${group.intervalMinutes}`, group.calls],
      [`expected${group.intervalMinutes}`, group.expected],
    ]),
  );
}

export function lagTargets(lag: LagFigures): BenchTarget[] {
  return lag.groups.map((group) => ({
    figure: `lag from due time to call, ${group.automations} automations every ${group.intervalMinutes} min scheduled at random seconds (p99)`,
    target: '≤ 5,000 ms',
    measured: `${format(group.p99Ms)} ms (${format(group.calls)} of ${format(group.expected)} runs, ${format(group.twice)} twice, ${format(group.early)} early)`,
    met: group.p99Ms <= 5_000 && group.calls >= group.expected && group.twice === 0 && group.early === 0,
  }));
}

export function lagMarkdown(lag: LagFigures): string {
  const b = (figure: string) => shown(before('lag', figure), 0);
  return [
    `Each automation created, then switched on through the API (its lawyer's switch) at a random second of the`,
    `first minute; ${lag.minutes} minutes on the real clock, the tick at the start of each minute, receiver 200 ms. Lag:`,
    'call start less the due time in its body; the runs due in the last 30 s are left out.',
    '',
    markdownTable(
      [
        'interval',
        'automations',
        'runs called (expected)',
        'twice',
        'early',
        `p50 ${beforeHeading()}`,
        'p50',
        `p99 ${beforeHeading()}`,
        'p99',
        `max ${beforeHeading()}`,
        'max',
        'target p99',
      ],
      lag.groups.map((group) => [
        `${group.intervalMinutes} min`,
        format(group.automations),
        `${format(group.calls)} (${format(group.expected)})`,
        format(group.twice),
        format(group.early),
        `${b(`p50Ms${group.intervalMinutes}`)} ms`,
        `${format(group.p50Ms)} ms`,
        `${b(`p99Ms${group.intervalMinutes}`)} ms`,
        `${format(group.p99Ms)} ms`,
        `${b(`maxMs${group.intervalMinutes}`)} ms`,
        `${format(group.maxMs)} ms`,
        '≤ 5,000 ms',
      ]),
    ),
  ].join('\n');
}

// ---------------------------------------------------------------------------- API requests

const requestKey = (request: RequestFigures) => request.request.split(' (')[0] ?? request.request;

export function callsFigures(figures: ApiCallsFigures): Record<string, number> {
  return Object.fromEntries(
    figures.requests.flatMap((request) => {
      const key = requestKey(request);
      return [
        [`${key} calls`, request.calls],
        [`${key} inSequence`, request.inSequence],
        [`${key} readUnits`, request.readUnits],
        [`${key} writeUnits`, request.writeUnits],
        [`${key} cpuRatio`, request.handlerCpuMs / Math.max(0.001, request.bareCpuMs)],
        [`${key} handlerCpuMs`, request.handlerCpuMs],
      ];
    }),
  );
}

/** The budgets of issue's API targets: calls and calls waiting for one another, per request. */
const CALL_BUDGETS: Record<string, { readonly calls: number; readonly inSequence: number }> = {
  'GET /api/workflows': { calls: 3, inSequence: 2 },
  'GET /api/workflows as a lawyer': { calls: 3, inSequence: 2 },
  'POST /api/verify-license': { calls: 5, inSequence: 3 },
};

export const CPU_RATIO_TARGET = 1.3;

export function callsTargets(figures: ApiCallsFigures): BenchTarget[] {
  const { sent, refused } = figures.rightKeysAtOnce;
  const throttle: BenchTarget = {
    figure: `POST /api/verify-license: ${sent} right keys at once from one address, refused by the throttle`,
    target: '0',
    measured: String(refused),
    met: refused === 0,
  };
  return [
    ...figures.requests.flatMap((request): BenchTarget[] => {
      const budget = CALL_BUDGETS[requestKey(request)];
      const ratio = request.handlerCpuMs / Math.max(0.001, request.bareCpuMs);
      return [
        ...(budget
          ? [
              {
                figure: `${request.request}: DynamoDB calls (in sequence)`,
                target: `≤ ${budget.calls} (≤ ${budget.inSequence})`,
                measured: `${request.calls} (${request.inSequence})`,
                met: request.calls <= budget.calls && request.inSequence <= budget.inSequence,
              },
            ]
          : []),
        {
          figure: `${request.request}: Node CPU per request / bare script's`,
          target: `≤ ${CPU_RATIO_TARGET}×`,
          measured: `${format(ratio, 2)}× (${format(request.handlerCpuMs, 1)} / ${format(request.bareCpuMs, 1)} ms)`,
          met: ratio <= CPU_RATIO_TARGET,
        },
      ];
    }),
    throttle,
  ];
}

export function callsMarkdown(
  figures: ApiCallsFigures,
  nearlyIdle: ReadonlyMap<string, { readonly p50Ms: number; readonly p99Ms: number }>,
): string {
  const b = (request: RequestFigures, figure: string, digits: number) =>
    shown(before('api', `${requestKey(request)} ${figure}`), digits);
  return [
    'Each request through its handler in this process against DynamoDB Local, and beside it a bare script sending',
    'the same calls with the same client (calls that overlapped sent at once, the others one after the other),',
    `alternating, ${figures.requests[0]?.samples ?? 0} times each after 5 warm-up requests; Node CPU of this process,`,
    "the emulator's own (Java) left out on both sides. The function's side is its handler and the serialisation of its",
    "result, as Lambda's runtime sends it; the event is built before, the reply checked after. Calls in sequence: the",
    'longest chain of calls each waiting for the one before it.',
    '',
    markdownTable(
      [
        'request',
        `calls ${beforeHeading()}`,
        'calls',
        `in sequence ${beforeHeading()}`,
        'in sequence',
        'target',
        'read / write units',
        'Node CPU: function / bare script',
        `ratio ${beforeHeading()}`,
        'ratio',
        'nearly idle (5/s) p50 / p99',
      ],
      figures.requests.map((request) => {
        const budget = CALL_BUDGETS[requestKey(request)];
        const idle = nearlyIdle.get(requestKey(request));
        return [
          request.request,
          b(request, 'calls', 0),
          format(request.calls),
          b(request, 'inSequence', 0),
          format(request.inSequence),
          budget ? `≤ ${budget.calls} (≤ ${budget.inSequence})` : 'reported',
          `${format(request.readUnits, 1)} / ${format(request.writeUnits, 1)}`,
          `${format(request.handlerCpuMs, 1)} / ${format(request.bareCpuMs, 1)} ms`,
          `${b(request, 'cpuRatio', 2)}×`,
          `${format(request.handlerCpuMs / Math.max(0.001, request.bareCpuMs), 2)}× (≤ ${CPU_RATIO_TARGET}×)`,
          idle ? `${format(idle.p50Ms, 1)} / ${format(idle.p99Ms, 1)} ms` : '—',
        ];
      }),
    ),
    '',
    `${format(figures.rightKeysAtOnce.sent)} sign-ins with a right key sent at once from one address (colleagues behind one`,
    `office address), ${format(SIGN_IN_THROTTLE.lockAfter)} attempts allowed in flight: ${format(figures.rightKeysAtOnce.refused)} refused by the throttle (target 0).`,
  ].join('\n');
}

// ---------------------------------------------------------------------------- a firm's month

export const FIRM_MONTHLY_TARGET = 3;

/** The mean DynamoDB units of the API requests measured, for the cost of a firm's requests. */
export function meanApiRequestUnits(figures: ApiCallsFigures) {
  const count = Math.max(1, figures.requests.length);
  return {
    readUnits: figures.requests.reduce((sum, request) => sum + request.readUnits, 0) / count,
    writeUnits: figures.requests.reduce((sum, request) => sum + request.writeUnits, 0) / count,
  };
}

export function firmCostTarget(lines: readonly FirmCostLine[]): BenchTarget {
  const total = firmTotal(lines);
  return {
    figure: `cost of a firm a month at the mix (${format(TARGET_MIX.automations)} automations, ${format(TARGET_MIX.firms)} firms, ${format(TARGET_MIX.runsPerMinute)} runs a minute)`,
    target: `≤ $${FIRM_MONTHLY_TARGET}`,
    measured: `$${format(total, 2)}`,
    met: total <= FIRM_MONTHLY_TARGET,
  };
}

export function firmCostMarkdown(lines: readonly FirmCostLine[], apiMeasured: boolean): string {
  const total = firmTotal(lines);
  return [
    `### A firm's month at the mix (${format(TARGET_MIX.automations)} automations, ${format(TARGET_MIX.firms)} firms, ${format(TARGET_MIX.runsPerMinute)} runs a minute)`,
    '',
    `From the units above and bench/cost-model.ts (eu-west-3 prices as known on ${PRICES.date}, USD; the firm's`,
    `API use stated there${apiMeasured ? ', its DynamoDB units those the API part measured' : ', its DynamoDB units not measured yet'}).`,
    '',
    markdownTable(
      ['line', 'quantity', 'a month'],
      [
        ...lines.map((line) => [line.line, line.quantity, `$${format(line.monthly, 3)}`]),
        [
          '**total**',
          '',
          `**$${format(total, 2)}** (${beforeHeading()}: ${shown(before('cost', 'firmMonthly'), 2)})`,
        ],
      ],
    ),
  ].join('\n');
}
