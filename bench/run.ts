import { DUE_SHARDS } from '../functions/domain/scheduling/scheduling-settings';
import { FUNCTION_NAMES, handlerPathOf, NEEDS } from '../functions/needs';
import { esbuildOptionsOf } from '../lib/constructs/bundling';
import { repositoryPath } from '../lib/constructs/repository';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { adminPageMarkdown, adminPageTargets, runAdminPageBench } from './admin-page';
import { type ApiBenchFigures, runApiBench } from './api';
import { measureApiCalls } from './api-calls';
import { recordBaseline } from './baseline';
import {
  baselineSpecs,
  bundleFigures,
  bundlesMarkdown,
  extractCommit,
  measureBundles,
  unusedLoadsOf,
} from './bundles';
import { idleMinuteUnits, measureIdleMinute, measureRunCost, runUnits, writeCostUnits } from './cost';
import { firmCostAtMix, firmTotal } from './cost-model';
import {
  callsFigures,
  callsMarkdown,
  callsTargets,
  costFigures,
  costMarkdown,
  costTargets,
  firmCostMarkdown,
  firmCostTarget,
  lagFigures,
  lagMarkdown,
  lagTargets,
  meanApiRequestUnits,
} from './delivery-report';
import { historyCallsOf, runExportBench } from './export';
import { FAIRNESS_LAG_P99_TARGET_MS, runFairnessBench } from './fairness';
import { FIRST_LOAD_SECTION, firstLoadMarkdown, firstLoadTargets, runFirstLoadBench } from './first-load';
import { measureLag } from './lag';
import { type BenchTarget, measuredNow, type PartResult, writeResults } from './results-file';
import { costOf, PRICES_EU_WEST_3, projectedTickSeconds, runScaleTick, type ScaleScenario } from './scale';
import {
  benchTable,
  formatFigure,
  markdownTable,
  runSchedulerBench,
  schedulerBenchMarkdown,
  THROUGHPUT_READING,
  type ThroughputFigures,
  throughputFigures,
  throughputMarkdown,
} from './scheduler';
import { runSearchBench, searchMarkdown, searchTargets } from './search';

/**
 * `npm run bench`: the benchmarks. The scheduler part runs against DynamoDB Local (in memory) and
 * fauxqs, started here; the API part against the local runtime started as `npm start` does.
 * Prints the figures and writes them to bench/results.md. Takes a quarter of an hour: the lag
 * parts run on the real clock with the one-minute timer.
 *
 * `npm run bench -- api` (or `admin-page`, `cost`, `lag`, `worker`, `ticks`, `fairness`, `first-load`, `bundles`,
 * `scale`, `search`, `export`; several may be named) runs those parts only; results.md keeps the other parts' figures as
 * last measured, each with its date and load average, and its Targets table every part's targets at
 * their latest figure. `throughput` runs the worker part's throughput figure alone (a minute; the
 * worker part's lag figures take a quarter of an hour). `--baseline <commit>` also measures the
 * bundles of an earlier commit, built as they were deployed then. `--record-baseline` keeps the
 * cost, lag and API figures of this run as the before column of later runs (`bench/baseline.json`).
 */
const log = (line: string) => console.log(line);
const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const baseline = baselineAt >= 0 ? args[baselineAt + 1] : undefined;
/** The options followed by a value: that value is not a part's name. */
const VALUED_OPTIONS = [
  '--baseline',
  '--scale-workflows',
  '--admin-page-sizes',
  '--admin-page-screens',
  '--export-workflows',
  '--export-busy',
];
const parts = args.filter(
  (arg, index) => !arg.startsWith('--') && !VALUED_OPTIONS.includes(args[index - 1] ?? ''),
);
/** `--admin-page-sizes 1000,10000`: the table sizes /admin/workflows is visited at (default both). */
const adminPageSizesAt = args.indexOf('--admin-page-sizes');
const adminPageSizes =
  adminPageSizesAt >= 0 ? (args[adminPageSizesAt + 1] ?? '').split(',').map(Number) : [1_000, 10_000];
/** `--admin-page-screens DIR`: where to save /admin/workflows as seen at each size. */
const adminPageScreensAt = args.indexOf('--admin-page-screens');
const adminPageScreens = adminPageScreensAt >= 0 ? args[adminPageScreensAt + 1] : undefined;
const runs = (
  part:
    | 'api'
    | 'admin-page'
    | 'worker'
    | 'ticks'
    | 'fairness'
    | 'first-load'
    | 'bundles'
    | 'scale'
    | 'search'
    | 'cost'
    | 'lag'
    | 'export',
) => parts.length === 0 || parts.includes(part);
/** `--scale-workflows N`: the size of the scale part (default 200,000, with 150,000 due). */
const scaleAt = args.indexOf('--scale-workflows');
const scaleWorkflows = scaleAt >= 0 ? Number(args[scaleAt + 1]) : 200_000;
/**
 * `--export-workflows N` / `--export-busy N`: the exported firm's automations and how many of them ran every
 * minute for 30 days (default 1,000 and 10, the issue's firm, ≈ 430,000 history calls).
 */
const exportSizeAt = (option: string, fallback: number) =>
  args.includes(option) ? Number(args[args.indexOf(option) + 1]) : fallback;
const EXPORT_FIRM = { workflows: 1_000, busy: 10 };
const exportWorkflows = exportSizeAt('--export-workflows', EXPORT_FIRM.workflows);
const exportBusy = exportSizeAt('--export-busy', EXPORT_FIRM.busy);
const throughputAlone = parts.includes('throughput') && !runs('worker');
/** `--record-baseline`: the figures of this run become the before column of later runs (`bench/baseline.json`). */
const recordingBaseline = args.includes('--record-baseline');
const started = new Date();
/** A claimer's memory (the AppFunction default, 512 MB), for the tick's GB-seconds. */
const CLAIMS_CLAIMER_MEMORY_GB = 0.5;
const results: PartResult[] = [];
/** A part's figures, measured now. */
const ran = (part: string, sections: readonly string[], targets: readonly BenchTarget[]) =>
  results.push({ part, measured: measuredNow(), targets, markdown: sections.join('\n') });
const throughputTarget = (figures: ThroughputFigures, alone: ThroughputFigures): BenchTarget => {
  const reached = figures.callsPerSecond / figures.boundPerSecond;
  return {
    figure: `worker throughput, ${figures.receiverDelayMs} ms receiver`,
    target: '≥ 90 % of 5 / delay',
    measured: `${formatFigure(100 * reached)} % (${formatFigure(figures.callsPerSecond, 1)}/s; one invocation ${formatFigure((100 * alone.callsPerSecond) / alone.boundPerSecond)} %)`,
    met: reached >= 0.9,
  };
};

if (runs('worker') || runs('ticks')) {
  const dynamo = await startDynamoDbLocal();
  try {
    const figures = await runSchedulerBench({
      endpoint: dynamo.endpoint,
      emulatorPid: dynamo.pid,
      sizes: runs('ticks') ? [10_000, 100_000] : [],
      throughputCalls: 200,
      receiverDelayMs: 200,
      lagWorkflows: 300,
      lagSpreadSeconds: 120,
      loadWorkflows: 1_500,
      loadSpreadSeconds: 30,
      mixWorkflows: 900,
      mixMinutes: 4,
      log,
    });
    const { lagUnderLoad, mix } = figures;
    ran(
      'worker',
      ['## Scheduler', '', schedulerBenchMarkdown(figures)],
      [
        throughputTarget(figures.throughput, figures.throughputAlone),
        {
          figure: `dispatch lag under load, ${formatFigure(lagUnderLoad.workflows)} due in ${lagUnderLoad.spreadSeconds} s`,
          target: 'reported',
          measured: `p50 ${formatFigure(lagUnderLoad.p50Ms)} ms, p99 ${formatFigure(lagUnderLoad.p99Ms)} ms, ${formatFigure(lagUnderLoad.maxBacklog)} waiting at most, ${formatFigure(lagUnderLoad.callsTwice)} called twice`,
          met: null,
        },
        {
          figure: `product mix, ${formatFigure(mix.workflows)} workflows at 1–2 min`,
          target: 'reported',
          measured: `p50 ${formatFigure(mix.p50Ms)} ms, p99 ${formatFigure(mix.p99Ms)} ms, ${formatFigure(mix.calls)} of ${formatFigure(mix.expectedCalls)} calls, ${formatFigure(mix.callsTwice)} called twice`,
          met: null,
        },
      ],
    );
  } finally {
    await dynamo.stop();
  }
}

if (runs('fairness')) {
  const dynamo = await startDynamoDbLocal();
  try {
    const figures = await runFairnessBench({
      endpoint: dynamo.endpoint,
      slowRuns: 40,
      fastFirms: 50,
      workers: 20,
    });
    const measured = `p50 ${formatFigure(figures.p50Ms)} ms, p99 ${formatFigure(figures.p99Ms)} ms`;
    log(`Équité : ${measured}`);
    ran(
      'fairness',
      [
        '## Fair delivery',
        '',
        `One firm's n8n never answers before the time-out (${figures.slowRuns} due runs), ${figures.fastFirms} other firms answer in 200 ms, ${figures.workers} workers: from the queueing of every run to the start of each fast firm's call, ${measured}.`,
      ],
      [
        {
          figure: `fast firms' dispatch lag beside a firm whose n8n hangs (${figures.slowRuns} + ${figures.fastFirms} runs, ${figures.workers} workers)`,
          target: `p99 ≤ ${formatFigure(FAIRNESS_LAG_P99_TARGET_MS)} ms`,
          measured,
          met: figures.p99Ms <= FAIRNESS_LAG_P99_TARGET_MS,
        },
      ],
    );
  } finally {
    await dynamo.stop();
  }
}

if (runs('export')) {
  const dynamo = await startDynamoDbLocal();
  try {
    const figures = await runExportBench({
      endpoint: dynamo.endpoint,
      workflows: exportWorkflows,
      busy: exportBusy,
      log,
    });
    const builderSeconds = NEEDS['data-export-builder'].timeoutSeconds ?? 900;
    const megabytes = (bytes: number) => formatFigure(bytes / 1024 / 1024, 1);
    // The builder reads and writes each history call once: time and size grow linearly with them.
    const issueCalls = historyCallsOf(EXPORT_FIRM.busy);
    const toIssueSize = issueCalls / figures.calls;
    const projectedSeconds = figures.exportSeconds * toIssueSize;
    const projectedBytes = figures.sizeBytes * toIssueSize;
    ran(
      'export',
      [
        "## A firm's data export",
        '',
        `A firm of ${formatFigure(figures.workflows)} automations, ${figures.busyWorkflows} of them run every minute for 30 days, ` +
          `each run with its completion report, exported by the real builder (\`DataExports.build\`, the ZIP writer, the ` +
          'local files) against DynamoDB Local on this machine; the ZIP checked with `unzip -t` and every CSV parsed ' +
          '(RFC 4180, as many records as its JSON twin). ' +
          (figures.calls === issueCalls
            ? ''
            : `Measured below the issue's firm (${formatFigure(EXPORT_FIRM.workflows)} automations, ${EXPORT_FIRM.busy} busy: ` +
              `${formatFigure(issueCalls)} calls), too slow on DynamoDB Local here; its time and size are projected ` +
              'linearly in the history calls, which the builder reads and writes once each ' +
              '(`npm run bench -- export --export-busy N`).'),
        '',
        markdownTable(
          ['figure', 'measured (DynamoDB Local, this machine)'],
          [
            [
              'history calls / completion reports in the export',
              `${formatFigure(figures.calls)} / ${formatFigure(figures.reports)}`,
            ],
            [
              'bulk load of the firm (BatchWriteItem by 25, 16 in flight)',
              `${formatFigure(figures.loadSeconds, 1)} s`,
            ],
            ['export: request to ZIP ready', `${formatFigure(figures.exportSeconds, 1)} s`],
            ['ZIP size', `${megabytes(figures.sizeBytes)} MB (${formatFigure(figures.sizeBytes)} bytes)`],
            [
              'process memory before / at its highest during the build',
              `${figures.baseRssMb} / ${figures.peakRssMb} MB`,
            ],
            ['`unzip -t`', figures.unzipOk ? 'no errors' : 'errors'],
            [
              'CSV files parsed / records',
              `${figures.csvFiles} / ${formatFigure(figures.csvRecords)}${figures.csvOk ? '' : ' (mismatch with the JSON)'}`,
            ],
            ...(figures.calls === issueCalls
              ? []
              : [
                  [
                    `projected to ${formatFigure(issueCalls)} calls (× ${formatFigure(toIssueSize, 1)}, linear in calls): time / ZIP size`,
                    `${formatFigure(projectedSeconds, 1)} s / ${megabytes(projectedBytes)} MB`,
                  ],
                ]),
          ],
        ),
        '',
      ],
      [
        {
          figure: `export of the issue's firm (${formatFigure(issueCalls)} calls), emulator time (the builder has 900 s in AWS)`,
          target: `< ${builderSeconds} s`,
          measured:
            figures.calls === issueCalls
              ? `${formatFigure(figures.exportSeconds, 1)} s`
              : `${formatFigure(projectedSeconds, 1)} s projected from ${formatFigure(figures.exportSeconds, 1)} s at ${formatFigure(figures.calls)} calls`,
          met: projectedSeconds < builderSeconds,
        },
        {
          figure: 'export: process memory growth during the build (builder: 1,024 MB)',
          target: '< 512 MB',
          measured: `${figures.peakRssMb - figures.baseRssMb} MB`,
          met: figures.peakRssMb - figures.baseRssMb < 512,
        },
        {
          figure: 'export: every CSV parses, as many records as its JSON',
          target: 'all',
          measured: `${figures.csvFiles} files, ${formatFigure(figures.csvRecords)} records${figures.csvOk ? '' : ', mismatch'}`,
          met: figures.csvOk,
        },
        {
          figure: 'export ZIP opens with unzip',
          target: 'no errors',
          measured: figures.unzipOk ? 'no errors' : 'errors',
          met: figures.unzipOk,
        },
      ],
    );
  } finally {
    await dynamo.stop();
  }
}

if (runs('scale')) {
  const dynamo = await startDynamoDbLocal();
  try {
    const due = Math.round(scaleWorkflows * 0.75);
    const firms = Math.round(scaleWorkflows / 100);
    const tick = await runScaleTick({
      endpoint: dynamo.endpoint,
      workflows: scaleWorkflows,
      firms,
      due,
      log,
    });
    const perRun = (name: string) => formatFigure((tick.commands[name] ?? 0) / Math.max(1, tick.queued), 2);
    const projectedTick = projectedTickSeconds(150_000);
    const projectedForced = projectedTickSeconds(scaleWorkflows);
    const projectedForcedMillion = projectedTickSeconds(1_000_000);
    const apiTimeout = NEEDS['workflow-scheduler'].timeoutSeconds ?? 10;
    const slowestForced = Math.max(...tick.forcedAlone.map((claimer) => claimer.seconds));
    const tickQueued = tick.queued - tick.alone.reduce((sum, claimer) => sum + claimer.runs, 0);
    // The simulation of a 150,000-run tick: each claimer measured alone on this machine, its time
    // scaled to its share of 150,000 runs; in AWS the 64 run at once, each on its own Lambda and
    // its own index partition, so the tick lasts as long as the slowest.
    const simulatedTick = Math.max(
      ...tick.alone.map((claimer) => (Math.ceil(150_000 / DUE_SHARDS) / claimer.runs) * claimer.seconds),
    );
    const sections = [
      '## Scale: one fanned-out tick',
      '',
      `Measured: ${formatFigure(tick.workflows)} automations of ${formatFigure(tick.firms)} firms in DynamoDB Local, ` +
        `${formatFigure(tick.due)} due at the tick; load average ${tick.loadAverage} at the end.`,
      '',
      markdownTable(
        ['figure', 'measured (DynamoDB Local, this machine)'],
        [
          [
            'bulk load (BatchWriteItem by 25, 16 in flight)',
            `${formatFigure(tick.loadSeconds, 1)} s (${formatFigure(tick.loadItemsPerSecond)} items/s)`,
          ],
          ['runs queued and claimed', formatFigure(tick.queued)],
          ...tick.alone.map((claimer): [string, string] => [
            `claimer of shard ${claimer.shard} alone (the emulator to itself)`,
            `${formatFigure(claimer.runs)} runs in ${formatFigure(claimer.seconds, 1)} s (${formatFigure(claimer.runs / claimer.seconds)} runs/s)`,
          ]),
          [
            `the other ${formatFigure(tick.claimers)} claimers at once, coordinator to last done`,
            `${formatFigure(tick.tickSeconds, 1)} s`,
          ],
          [
            'claim rate, those claimers together (one emulator process)',
            `${formatFigure(tickQueued / tick.tickSeconds)} runs/s`,
          ],
          [
            'claim rate per claimer, median / slowest',
            `${formatFigure(tick.claimRateMedian)} / ${formatFigure(tick.claimRateMin)} runs/s`,
          ],
          ['DynamoDB Query pages per run', perRun('QueryCommand')],
          ['DynamoDB UpdateItem per run (claim)', perRun('UpdateCommand')],
          ['SQS SendMessageBatch per run', formatFigure(tick.sendBatches / Math.max(1, tick.queued), 2)],
          ['Lambda invocations per tick', `1 coordinator + ${DUE_SHARDS} claimers`],
          ...tick.forcedAlone.map((claimer): [string, string] => [
            `admin's forced run after the tick, claimer of shard ${claimer.shard} alone`,
            `${formatFigure(claimer.runs)} automations in ${formatFigure(claimer.seconds, 1)} s (${formatFigure(claimer.runs / claimer.seconds)} runs/s)`,
          ]),
        ],
      ),
      '',
      // An admin's run fans out as the tick does (functions/domain/scheduling/run-scheduler.ts): the request
      // waits for its 64 claimers, so it lasts as long as the slowest shard, within the API's time-out.
      `An admin's run ('Déclencher Maintenant', forced: every scheduled automation) fans out like the tick, ` +
        `its request waiting for the ${DUE_SHARDS} claimers (synchronous invocations, all at once). Projected ` +
        `with the same partition bound: ${formatFigure(projectedForced.seconds, 1)} s for ${formatFigure(scaleWorkflows)} ` +
        `automations (${formatFigure(projectedForced.perShard)} a shard), ${formatFigure(projectedForcedMillion.seconds, 1)} s ` +
        `for 1,000,000 (${formatFigure(projectedForcedMillion.perShard)} a shard); the API's time-out is ${apiTimeout} s. ` +
        'Before (one request claiming them all) it took 19.5 s for 10,000 automations on this machine, and its reply ' +
        'listed every run (1.48 MB; Lambda refuses replies over 6 MB).',
      '',
      `Projected to AWS for 150,000 due runs: ${formatFigure(projectedTick.perShard)} per shard, a claimer bounded ` +
        `at ${formatFigure(projectedTick.rate)} claims/s by its index partition (2 writes a claim, 1,000 writes/s a ` +
        `partition): about ${formatFigure(projectedTick.seconds, 1)} s for the tick, 64 claimers at once ` +
        `(${formatFigure(DUE_SHARDS * CLAIMS_CLAIMER_MEMORY_GB * projectedTick.seconds, 0)} GB-s a tick).`,
      '',
    ];
    const scenarios: (readonly [string, ScaleScenario])[] = [
      [
        'measured size',
        { workflows: scaleWorkflows, firms, scheduledShare: 0.2, meanIntervalMinutes: 1.5, answerMs: 200 },
      ],
      [
        '1,000,000 / 10,000',
        { workflows: 1_000_000, firms: 10_000, scheduledShare: 0.2, meanIntervalMinutes: 1.5, answerMs: 200 },
      ],
    ];
    sections.push(
      `### Cost per month (model in bench/scale.ts; eu-west-3 on-demand prices as known on ${PRICES_EU_WEST_3.date}, USD)`,
      '',
      "20 % of the automations scheduled, a mean interval of 1.5 minutes (the product's 1- and 2-minute types), n8n answering in 200 ms.",
      '',
      markdownTable(
        ['size', 'runs/min', 'calls in flight', 'DynamoDB', 'SQS', 'Lambda', 'Logs', 'total', 'per firm'],
        scenarios.map(([label, scenario]) => {
          const cost = costOf(scenario);
          return [
            label,
            formatFigure(cost.runsPerMinute),
            formatFigure(cost.callsInFlight),
            `$${formatFigure(cost.dynamoUsd)}`,
            `$${formatFigure(cost.sqsUsd)}`,
            `$${formatFigure(cost.lambdaUsd)}`,
            `$${formatFigure(cost.logsUsd)}`,
            `$${formatFigure(cost.totalUsd)}`,
            `$${formatFigure(cost.perFirmUsd, 2)}`,
          ];
        }),
      ),
      '',
    );
    ran('scale', sections, [
      {
        figure: `tick: 150,000 due runs, its slowest claimer measured alone (${formatFigure(Math.ceil(150_000 / DUE_SHARDS))} runs)`,
        target: '≤ 60 s',
        measured: `${formatFigure(simulatedTick, 1)} s`,
        met: simulatedTick <= 60,
      },
      {
        figure: 'tick: 150,000 due runs queued and claimed (projected to AWS)',
        target: '≤ 60 s',
        measured: `${formatFigure(projectedTick.seconds, 1)} s`,
        met: projectedTick.seconds <= 60,
      },
      {
        figure: `admin's forced run of ${formatFigure(scaleWorkflows)} automations: its slowest claimer measured alone`,
        target: `≤ ${apiTimeout} s (the API's time-out)`,
        measured: `${formatFigure(slowestForced, 1)} s`,
        met: slowestForced <= apiTimeout,
      },
    ]);
  } finally {
    await dynamo.stop();
  }
}

if (throughputAlone) {
  const dynamo = await startDynamoDbLocal();
  try {
    log('Débit : 200 appels, récepteur à 200 ms, 5 en parallèle...');
    const { atOnce, alone } = await throughputFigures(dynamo.endpoint, 200, 200, dynamo.pid);
    ran(
      'throughput',
      [
        '## Dispatch throughput (worker + poller, 5 invocations at once, then one)',
        '',
        throughputMarkdown([atOnce, alone]),
        '',
        THROUGHPUT_READING,
      ],
      [throughputTarget(atOnce, alone)],
    );
  } finally {
    await dynamo.stop();
  }
}

if (runs('cost')) {
  const dynamo = await startDynamoDbLocal();
  try {
    log('Coût : une minute sans exécution due...');
    const idle = await measureIdleMinute(dynamo.endpoint);
    log('Coût : 300 exécutions réclamées par un tick et livrées, récepteur à 200 ms...');
    const run = await measureRunCost(dynamo.endpoint, { runs: 300, receiverDelayMs: 200 });
    // The units the operations runbook prices (npm run docs:operations).
    const units = writeCostUnits({
      perIdleMinute: idleMinuteUnits(idle),
      perRun: runUnits(run),
      metricsPublishedAtRest: idle.metricsPublished,
    });
    const firm = firmCostAtMix({
      perRun: runUnits(run, 'atMix'),
      perIdleMinute: units.perIdleMinute,
      apiRequest: units.perApiRequest ?? { readUnits: 0, writeUnits: 0 },
      stageFixedMonthly: null,
    });
    if (recordingBaseline)
      recordBaseline('cost', { ...costFigures(run, idle), firmMonthly: firmTotal(firm) });
    ran(
      'cost',
      [
        '## Cost of a delivered run and of an idle minute, measured',
        '',
        costMarkdown(run, idle),
        '',
        firmCostMarkdown(firm, units.perApiRequest !== undefined),
      ],
      [...costTargets(run), firmCostTarget(firm)],
    );
  } finally {
    await dynamo.stop();
  }
}

if (runs('lag')) {
  const dynamo = await startDynamoDbLocal();
  try {
    log('Retard : 20 automatisations à 1 min et 20 à 2 min planifiées à des secondes au hasard, 6 min...');
    const lag = await measureLag(dynamo.endpoint, { perGroup: 20, minutes: 6, log });
    if (recordingBaseline) recordBaseline('lag', lagFigures(lag));
    ran('lag', ['## Lag of scheduled runs, real clock', '', lagMarkdown(lag)], lagTargets(lag));
  } finally {
    await dynamo.stop();
  }
}

if (runs('api')) {
  const dynamo = await startDynamoDbLocal();
  let calls: Awaited<ReturnType<typeof measureApiCalls>>;
  try {
    log('API : appels DynamoDB et CPU par requête, à côté d’un script nu...');
    // 200 samples a request: on a loaded machine, medians of 30 swung from 1.16x to 1.44x from one
    // block of 30 to the next of the same run; a few seconds more a request settle them.
    calls = await measureApiCalls(dynamo.endpoint, { workflows: 1_000, samples: 200, log });
  } finally {
    await dynamo.stop();
  }
  const figures: ApiBenchFigures = await runApiBench({ workflows: 1_000, log });
  if (recordingBaseline) recordBaseline('api', callsFigures(calls));
  writeCostUnits({ perApiRequest: meanApiRequestUnits(calls) });
  const nearlyIdle = new Map(figures.runs.map((run) => [run.route, run]));
  const sections = [
    '## API requests: DynamoDB calls, units and Node CPU (what carries to AWS)',
    '',
    callsMarkdown(calls, nearlyIdle),
    '',
    '### The same routes nearly idle (local runtime as `npm start`, requests started at 5/s, none waiting)',
    '',
    'What one request takes here when the machine has CPU to spare, DynamoDB Local answering; printed beside',
    "the calls above, not a target: a latency at a rate on this machine measures the emulator's CPU.",
    '',
    markdownTable(
      [
        'route',
        'rate',
        'duration',
        'requests',
        'p50',
        'p90',
        'p99',
        'max',
        'non-2xx',
        'errors',
        'reply size',
      ],
      figures.runs.map((run) => [
        run.route,
        `${formatFigure(run.rate)}/s`,
        `${formatFigure(run.seconds)} s`,
        formatFigure(run.requests),
        `${formatFigure(run.p50Ms, 1)} ms`,
        `${formatFigure(run.p90Ms, 1)} ms`,
        `${formatFigure(run.p99Ms, 1)} ms`,
        `${formatFigure(run.maxMs, 0)} ms`,
        formatFigure(run.non2xx),
        formatFigure(run.errors),
        `${formatFigure(run.replyBytes)} B`,
      ]),
    ),
    '',
  ];
  const targets: BenchTarget[] = [...callsTargets(calls)];
  ran('api', sections, targets);
}

if (runs('search')) {
  // Its own DynamoDB Local in memory (on disk, SQLite loads the items some twenty times slower):
  // stopping it is the whole clean-up, so no failing table drop can hide the part's own error.
  const dynamo = await startDynamoDbLocal();
  try {
    // The scale part's automations: as many, over as many firms.
    const bench = await runSearchBench({
      table: await benchTable(dynamo.endpoint),
      automations: scaleWorkflows,
      firms: Math.round(scaleWorkflows / 100),
      log,
    });
    ran(
      'search',
      ['## Search among the automations (DynamoDB Local)', '', searchMarkdown(bench)],
      searchTargets(bench),
    );
  } finally {
    await dynamo.stop();
  }
}

if (runs('admin-page')) {
  const bench = await runAdminPageBench({
    sizes: adminPageSizes,
    lawyers: 50,
    runs: 5,
    watchMs: 30_000,
    ...(adminPageScreens ? { screenshotsDirectory: adminPageScreens } : {}),
    log,
  });
  ran(
    'admin-page',
    [
      '## /admin/workflows: one visit at 1,000 and 10,000 automations (Chromium, local runtime)',
      '',
      adminPageMarkdown(bench),
    ],
    adminPageTargets(bench),
  );
}

if (runs('bundles')) {
  // Each function built with the settings of `cdk synth` (lib/constructs/bundling.ts).
  const after = await measureBundles(
    FUNCTION_NAMES.map((name) => ({
      name,
      entry: repositoryPath(handlerPathOf(name)),
      options: esbuildOptionsOf(name),
    })),
    repositoryPath('.bench', 'bundles'),
  );
  if (recordingBaseline) recordBaseline('bundles', bundleFigures(after));
  const unused = after.flatMap((figures) =>
    unusedLoadsOf(figures.name, figures.externals).map((external) => `${figures.name}: ${external}`),
  );
  const sections = [
    '## Bundles and cold start',
    '',
    'Each function built as `cdk synth` builds it (minified ESM, the AWS SDK and Powertools external, no',
    'source map, only the declared adapters). Import time: median of 5 fresh `node` processes importing',
    'the bundle and every module it leaves to Lambda: the AWS SDK clients (the nodejs22.x runtime provides',
    "them) and Powertools (its layer), both from the repository's node_modules standing in for Lambda's",
    "copies, process start-up left out. Beside it, Powertools' Tracer alone and the bundle's SDK clients",
    'alone, each in a fresh process, and their share of the whole.',
    '',
    bundlesMarkdown(after),
    '',
    unused.length === 0
      ? 'No function loads a Powertools utility or an AWS SDK client it does not use (its declared needs).'
      : `Loaded without being used (declared needs): ${unused.join('; ')}.`,
    '',
  ];
  if (baseline) {
    const source = extractCommit(baseline, repositoryPath('.bench', 'baseline-src'), repositoryPath());
    const before = await measureBundles(
      baselineSpecs(source, FUNCTION_NAMES),
      repositoryPath('.bench', 'baseline-bundles'),
    );
    sections.push(
      `### Before: commit ${baseline}`,
      '',
      'Built as deployed then: AWS SDK bundled, source maps, imported with `--enable-source-maps`.',
      '',
      bundlesMarkdown(before),
      '',
    );
  }
  ran('bundles', sections, [
    {
      figure: 'functions loading a Powertools utility or an SDK client they do not use',
      target: '0',
      measured: String(unused.length),
      met: unused.length === 0,
    },
  ]);
}

if (runs('first-load')) {
  const firstLoad = await runFirstLoadBench({ runs: 3, log });
  ran(
    'first-load',
    [`## ${FIRST_LOAD_SECTION}`, '', firstLoadMarkdown(firstLoad)],
    firstLoadTargets(firstLoad),
  );
}

console.log(`\n${writeResults(results, started.toISOString())}`);
