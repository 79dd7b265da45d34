import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';

/**
 * `npm test`'s test half, in two steps that keep about one busy process per CPU: the projects that
 * compute in Node (web in jsdom; infra's CDK synthesis with unit) as two vitest runs side by side,
 * then integration alone, whose files mostly wait on DynamoDB Local and fauxqs, with more files in
 * flight than CPUs. Running everything at once would make the emulator and the workers contend for
 * the CPUs and cost more CPU in all. Arguments after `npm test --` (a file filter) go to every run.
 */
const cpus = availableParallelism();
const halfOfCpus = String(Math.max(1, Math.floor(cpus / 2)));
// One more than the CPUs: each file spends much of its time waiting for the emulator's replies.
const waitingFilesInFlight = String(Math.max(3, cpus + 1));

interface VitestRun {
  readonly name: string;
  readonly args: readonly string[];
}

const steps: readonly (readonly VitestRun[])[] = [
  [
    { name: 'web', args: ['--project', 'web', `--maxWorkers=${halfOfCpus}`] },
    { name: 'infra+unit', args: ['--project', 'infra', '--project', 'unit', `--maxWorkers=${halfOfCpus}`] },
  ],
  [{ name: 'integration', args: ['--project', 'integration', `--maxWorkers=${waitingFilesInFlight}`] }],
];

const filters = process.argv.slice(2);
// A filter may name files of one run only: the others then have nothing to run, and that is no failure.
const filterArgs = filters.length > 0 ? ['--passWithNoTests', ...filters] : [];
// Piped output keeps each vitest's plain, line-per-file report (no redrawn summary); colours stay on a terminal.
const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;

function vitest({ args }: VitestRun): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn('vitest', ['run', ...args, ...filterArgs], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm puts node_modules/.bin on the PATH of its scripts.
      shell: process.platform === 'win32',
    });
    // Whole lines only, so that two reports interleave line by line.
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
    child.on('error', (error) => {
      process.stderr.write(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// Every step runs even when an earlier one failed, so that one run reports every failing test.
const outcomes: { name: string; code: number }[] = [];
for (const runs of steps) {
  const codes = await Promise.all(runs.map(vitest));
  outcomes.push(...runs.map(({ name }, index) => ({ name, code: codes[index] ?? 1 })));
}

for (const { name, code } of outcomes) {
  process.stdout.write(`${name}: ${code === 0 ? 'passed' : `failed (exit code ${code})`}\n`);
}
process.exit(outcomes.some(({ code }) => code !== 0) ? 1 : 0);
