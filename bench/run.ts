import { cpus } from 'node:os';

import { FUNCTION_NAMES } from '../functions/needs';
import { esbuildOptionsOf } from '../lib/constructs/bundling';
import { repositoryPath } from '../lib/constructs/repository';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { baselineSpecs, bundlesMarkdown, extractCommit, measureBundles } from './bundles';
import { FIRST_LOAD_SECTION, firstLoadMarkdown, runFirstLoadBench } from './first-load';
import { replaceResultsSection } from './results-file';
import { runSchedulerBench, schedulerBenchMarkdown } from './scheduler';

/**
 * `npm run bench`: every part, printed and written to bench/results.md (each part replaces its
 * own section there). `npm run bench -- bundles` runs one part; `--baseline <commit>` also
 * measures the bundles of an earlier commit, built as they were deployed then.
 *
 * - bundles: each function built with the settings `cdk synth` uses (lib/constructs/bundling.ts),
 *   its minified and gzipped size, and its import time in fresh `node` processes;
 * - scheduler: against DynamoDB Local (in memory) and fauxqs, started here. Takes a few minutes:
 *   the lag part runs on the real clock with the one-minute timer;
 * - first-load: /login's gzipped JavaScript and CSS and Lighthouse (mobile, desktop) against the
 *   local runtime, with Debian's Chromium.
 */
const log = (line: string) => console.log(line);
const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const baseline = baselineAt >= 0 ? args[baselineAt + 1] : undefined;
const parts = args.filter((arg, index) => !arg.startsWith('--') && index !== baselineAt + 1);
const wanted = (part: string) => parts.length === 0 || parts.includes(part);
const machine = `${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), Node.js ${process.version}`;

if (wanted('bundles')) {
  const started = new Date().toISOString();
  const after = await measureBundles(
    FUNCTION_NAMES.map((name) => ({
      name,
      entry: repositoryPath('functions', `${name}.ts`),
      options: esbuildOptionsOf(name),
    })),
    repositoryPath('.bench', 'bundles'),
  );
  const sections = [
    `Run ${started} on ${machine}. Each function built with the settings of \`cdk synth\``,
    '(`lib/constructs/bundling.ts`: minified ESM, AWS SDK external, no source map, only the declared',
    'adapters). Import time: median of 5 fresh `node` processes importing the bundle and the AWS SDK',
    "clients it imports (resolved from the repository's node_modules, standing in for the copy the",
    'Lambda runtime provides), process start-up left out.',
    '',
    bundlesMarkdown(after),
  ];
  if (baseline) {
    const source = extractCommit(baseline, repositoryPath('.bench', 'baseline-src'), repositoryPath());
    const before = await measureBundles(
      baselineSpecs(source, FUNCTION_NAMES),
      repositoryPath('.bench', 'baseline-bundles'),
    );
    sections.push(
      '',
      `### Before: commit ${baseline}`,
      '',
      'Built as deployed then: AWS SDK bundled, source maps, imported with `--enable-source-maps`.',
      '',
      bundlesMarkdown(before),
    );
  }
  const markdown = sections.join('\n');
  console.log(`\n## Bundles\n\n${markdown}`);
  replaceResultsSection('Bundles', markdown);
}

if (wanted('scheduler')) {
  const dynamo = await startDynamoDbLocal();
  try {
    const started = new Date();
    const figures = await runSchedulerBench({
      endpoint: dynamo.endpoint,
      sizes: [10_000, 100_000],
      throughputCalls: 200,
      receiverDelayMs: 200,
      lagWorkflows: 300,
      lagSpreadSeconds: 120,
      log,
    });
    const markdown = [
      `Run ${started.toISOString()} on ${machine},`,
      'against DynamoDB Local (in memory) and fauxqs in the same machine: absolute times are those of the',
      'emulators, not of AWS; items read and ratios carry over.',
      '',
      schedulerBenchMarkdown(figures),
    ].join('\n');
    console.log(`\n## Scheduler\n\n${markdown}`);
    replaceResultsSection('Scheduler', markdown);
  } finally {
    await dynamo.stop();
  }
}

if (wanted('first-load')) {
  const figures = await runFirstLoadBench({ runs: 3, log });
  const markdown = firstLoadMarkdown(figures);
  console.log(`\n## ${FIRST_LOAD_SECTION}\n\n${markdown}`);
  replaceResultsSection(FIRST_LOAD_SECTION, markdown);
}
