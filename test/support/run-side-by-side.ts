import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';

/**
 * `npm test`'s test half. One vitest runs every project with one worker per CPU but one, in turn;
 * here the projects that compute (web in jsdom, infra's CDK synth) run in one vitest, and beside it
 * the projects that mostly wait on the emulators (integration, unit) run with more files in flight
 * than CPUs. Arguments after `npm test --` (a file filter) go to both.
 */
// One more than the CPUs: the web side keeps one CPU busy, so more would only lengthen each file's waits.
const WAITING_FILES_IN_FLIGHT = Math.max(3, availableParallelism() + 1);

const runs = [
  { name: 'web+infra', args: ['--project', 'web', '--project', 'infra'] },
  {
    name: 'unit+integration',
    args: ['--project', 'unit', '--project', 'integration', `--maxWorkers=${WAITING_FILES_IN_FLIGHT}`],
  },
];

const filters = process.argv.slice(2);
// A filter may name files of one side only: the other side then has nothing to run, and that is no failure.
const filterArgs = filters.length > 0 ? ['--passWithNoTests', ...filters] : [];
// Piped output keeps each vitest's plain, line-per-file report (no redrawn summary); colours stay on a terminal.
const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;

const codes = await Promise.all(
  runs.map(
    ({ args }) =>
      new Promise<number>((resolve) => {
        const child = spawn('vitest', ['run', ...args, ...filterArgs], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
          // npm puts node_modules/.bin on the PATH of its scripts.
          shell: process.platform === 'win32',
        });
        // Whole lines only, so the two reports interleave line by line.
        createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
        createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
        child.on('error', (error) => {
          process.stderr.write(`${error.message}\n`);
          resolve(1);
        });
        child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  ),
);

for (const [index, code] of codes.entries()) {
  const run = runs[index];
  if (run) process.stdout.write(`${run.name}: ${code === 0 ? 'passed' : `failed (exit code ${code})`}\n`);
}
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
