import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

import { startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { FIRST_LOAD_SECTION, firstLoadMarkdown, runFirstLoadBench } from './first-load';
import { runSchedulerBench, schedulerBenchMarkdown } from './scheduler';

/**
 * `npm run bench`: the benchmarks, against DynamoDB Local (in memory) and fauxqs, started here.
 * Prints the figures and writes them to bench/results.md. Takes a few minutes: the lag part runs
 * on the real clock with the one-minute timer. One part alone: `npx tsx bench/first-load.ts`.
 */
const log = (line: string) => console.log(line);
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
  const firstLoad = await runFirstLoadBench({ runs: 3, log });
  const markdown = [
    '# Benchmarks',
    '',
    `Run ${started.toISOString()} on ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), Node.js ${process.version},`,
    'against DynamoDB Local (in memory) and fauxqs in the same machine: absolute times are those of the',
    'emulators, not of AWS; items read and ratios carry over.',
    '',
    '## Scheduler',
    '',
    schedulerBenchMarkdown(figures),
    '',
    `## ${FIRST_LOAD_SECTION}`,
    '',
    firstLoadMarkdown(firstLoad),
  ].join('\n');
  console.log(`\n${markdown}`);
  writeFileSync(fileURLToPath(new URL('./results.md', import.meta.url)), markdown);
} finally {
  await dynamo.stop();
}
