import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

import { FUNCTION_NAMES } from '../functions/needs';
import { esbuildOptionsOf } from '../lib/constructs/bundling';
import { repositoryPath } from '../lib/constructs/repository';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { type ApiBenchFigures, runApiBench } from './api';
import { baselineSpecs, bundlesMarkdown, extractCommit, measureBundles } from './bundles';
import { FIRST_LOAD_SECTION, firstLoadMarkdown, runFirstLoadBench } from './first-load';
import {
  formatFigure,
  markdownTable,
  runSchedulerBench,
  schedulerBenchMarkdown,
  throughputFigures,
} from './scheduler';

/**
 * `npm run bench`: the benchmarks. The scheduler part runs against DynamoDB Local (in memory) and
 * fauxqs, started here; the API part against the local runtime started as `npm start` does.
 * Prints the figures and writes them to bench/results.md. Takes a quarter of an hour: the lag
 * parts run on the real clock with the one-minute timer.
 *
 * `npm run bench -- api` (or `worker`, `ticks`, `first-load`, `bundles`; several may be named) runs
 * those parts only; results.md then says which parts ran. `throughput` runs the worker part's
 * throughput figure alone (a minute; the worker part's lag figures take a quarter of an hour). `--baseline <commit>` also measures the
 * bundles of an earlier commit, built as they were deployed then.
 */
const log = (line: string) => console.log(line);
const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const baseline = baselineAt >= 0 ? args[baselineAt + 1] : undefined;
const parts = args.filter(
  (arg, index) => !arg.startsWith('--') && (baselineAt < 0 || index !== baselineAt + 1),
);
const runs = (part: 'api' | 'worker' | 'ticks' | 'first-load' | 'bundles') =>
  parts.length === 0 || parts.includes(part);
const throughputAlone = parts.includes('throughput') && !runs('worker');
const started = new Date();
const sections: string[] = [];
const targets: (readonly [string, string, string, boolean])[] = [];

if (runs('worker') || runs('ticks')) {
  const dynamo = await startDynamoDbLocal();
  try {
    const figures = await runSchedulerBench({
      endpoint: dynamo.endpoint,
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
    sections.push('## Scheduler', '', schedulerBenchMarkdown(figures));
    const reached = figures.throughput.callsPerSecond / figures.throughput.boundPerSecond;
    targets.push([
      `worker throughput, ${figures.throughput.receiverDelayMs} ms receiver`,
      '≥ 90 % of 5 / delay',
      `${formatFigure(100 * reached)} % (${formatFigure(figures.throughput.callsPerSecond, 1)}/s)`,
      reached >= 0.9,
    ]);
  } finally {
    await dynamo.stop();
  }
}

if (throughputAlone) {
  const dynamo = await startDynamoDbLocal();
  try {
    log('Débit : 200 appels, récepteur à 200 ms, 5 en parallèle...');
    const throughput = await throughputFigures(dynamo.endpoint, 200, 200);
    const reached = throughput.callsPerSecond / throughput.boundPerSecond;
    sections.push(
      '## Dispatch throughput (worker + poller, 5 at once)',
      '',
      markdownTable(
        ['calls', 'receiver delay', 'duration', 'calls/s', 'bound 5/delay (reached)', 'max concurrent seen'],
        [
          [
            formatFigure(throughput.calls),
            `${throughput.receiverDelayMs} ms`,
            `${formatFigure(throughput.seconds, 1)} s`,
            formatFigure(throughput.callsPerSecond, 1),
            `${formatFigure(throughput.boundPerSecond, 1)} (${formatFigure(100 * reached)} %)`,
            formatFigure(throughput.maxConcurrent),
          ],
        ],
      ),
      '',
    );
    targets.push([
      `worker throughput, ${throughput.receiverDelayMs} ms receiver`,
      '≥ 90 % of 5 / delay',
      `${formatFigure(100 * reached)} % (${formatFigure(throughput.callsPerSecond, 1)}/s)`,
      reached >= 0.9,
    ]);
  } finally {
    await dynamo.stop();
  }
}

if (runs('api')) {
  const figures: ApiBenchFigures = await runApiBench({ workflows: 1_000, rate: 100, seconds: 20, log });
  const { page } = figures;
  sections.push(
    '## API under load (autocannon, local runtime as `npm start`, loopback)',
    '',
    markdownTable(
      ['route', 'rate', 'duration', 'served/s', 'p50', 'p99', 'max', 'non-2xx', 'errors', 'reply size'],
      figures.runs.map((run) => [
        run.route,
        `${run.rate}/s`,
        `${formatFigure(run.seconds, 0)} s`,
        formatFigure(run.requestsPerSecond, 1),
        `${formatFigure(run.p50Ms, 1)} ms`,
        `${formatFigure(run.p99Ms, 1)} ms`,
        `${formatFigure(run.maxMs, 0)} ms`,
        formatFigure(run.non2xx),
        formatFigure(run.errors),
        `${formatFigure(run.replyBytes)} B`,
      ]),
    ),
    '',
  );
  if (page) {
    sections.push(
      '## /admin/workflows in Chromium (headless, assets cached, local runtime)',
      '',
      markdownTable(
        ['automations', 'first card visible (median)', 'runs', 'every page loaded', 'DOM nodes', 'JS heap'],
        [
          [
            formatFigure(page.workflows),
            `${formatFigure(page.firstCardMs)} ms`,
            page.firstCardRunsMs.map((ms) => formatFigure(ms)).join(', '),
            `${formatFigure(page.allLoadedMs)} ms`,
            formatFigure(page.domNodes),
            `${formatFigure(page.heapMb, 1)} MB`,
          ],
        ],
      ),
      '',
    );
    targets.push([
      `/admin/workflows with ${formatFigure(page.workflows)} automations, first card`,
      '≤ 1,000 ms',
      `${formatFigure(page.firstCardMs)} ms (${formatFigure(page.domNodes)} DOM nodes)`,
      page.firstCardMs <= 1_000,
    ]);
  } else {
    sections.push(
      '## /admin/workflows in Chromium',
      '',
      `Not measured: ${figures.pageFailure ?? 'unknown'}`,
      '',
    );
    targets.push(['/admin/workflows, first card', '≤ 1,000 ms', 'not measured', false]);
  }
  for (const run of figures.runs) {
    targets.push([
      `${run.route} p99 at ${run.rate}/s`,
      `≤ ${run.targetP99Ms} ms`,
      `${formatFigure(run.p99Ms, 1)} ms`,
      run.p99Ms <= run.targetP99Ms && run.non2xx === 0 && run.errors === 0,
    ]);
  }
}

if (runs('bundles')) {
  // Each function built with the settings of `cdk synth` (lib/constructs/bundling.ts).
  const after = await measureBundles(
    FUNCTION_NAMES.map((name) => ({
      name,
      entry: repositoryPath('functions', `${name}.ts`),
      options: esbuildOptionsOf(name),
    })),
    repositoryPath('.bench', 'bundles'),
  );
  sections.push(
    '## Bundles',
    '',
    'Each function built as `cdk synth` builds it (minified ESM, AWS SDK external, no source map, only',
    'the declared adapters). Import time: median of 5 fresh `node` processes importing the bundle and',
    "the AWS SDK clients it imports (from the repository's node_modules, standing in for the Lambda",
    "runtime's copy), process start-up left out.",
    '',
    bundlesMarkdown(after),
    '',
  );
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
}

if (runs('first-load')) {
  const firstLoad = await runFirstLoadBench({ runs: 3, log });
  sections.push(`## ${FIRST_LOAD_SECTION}`, '', firstLoadMarkdown(firstLoad), '');
}

const markdown = [
  '# Benchmarks',
  '',
  `Run ${started.toISOString()} on ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), Node.js ${process.version},`,
  'against DynamoDB Local (in memory) and fauxqs in the same machine: absolute times are those of the',
  'emulators, not of AWS; items read and ratios carry over.',
  `Parts run: ${parts.length === 0 ? 'all' : parts.join(', ')}. The machine's load average during the run: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(', ')} (1, 5, 15 min).`,
  '',
  '## Targets',
  '',
  markdownTable(
    ['figure', 'target', 'measured', 'met'],
    targets.map(([figure, target, measured, met]) => [figure, target, measured, met ? 'yes' : 'no']),
  ),
  '',
  ...sections,
].join('\n');
console.log(`\n${markdown}`);
writeFileSync(fileURLToPath(new URL('./results.md', import.meta.url)), markdown);
