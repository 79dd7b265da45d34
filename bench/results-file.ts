import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('./results.md', import.meta.url));

/** A Markdown table with right-aligned columns, padded as the formatter (Biome) lays tables out. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const width = (text: string) => [...text].length;
  const widths = header.map((title, column) =>
    Math.max(3, width(title), ...rows.map((row) => width(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => ' '.repeat((widths[column] ?? 0) - width(cell)) + cell).join(' | ')} |`;
  return [
    line(header),
    `| ${widths.map((size) => `${'-'.repeat(size - 1)}:`).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}

/** One target of a part, as the Targets table shows it. `met` null: a figure reported, no bound. */
export interface BenchTarget {
  readonly figure: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | null;
}

/** When and on what a part was measured: the figures mean little without the machine's load. */
export interface Measurement {
  readonly at: string;
  /** The 1-, 5- and 15-minute load averages when the part ended. */
  readonly loadAverage: readonly number[];
  readonly cpus: number;
}

/** A part's figures as bench/results.md keeps them until that part runs again. */
export interface PartResult {
  readonly part: string;
  readonly measured: Measurement;
  readonly targets: readonly BenchTarget[];
  /** One or more `## ` sections. */
  readonly markdown: string;
}

/** Now, as a part that just ended was measured. */
export function measuredNow(): Measurement {
  return {
    at: new Date().toISOString(),
    loadAverage: loadavg().map((value) => Math.round(value * 10) / 10),
    cpus: cpus().length,
  };
}

const describe = (measured: Measurement) =>
  `${measured.at.slice(0, 16).replace('T', ' ')} UTC, load average ${measured.loadAverage
    .map((value) => value.toFixed(1))
    .join(', ')} on ${measured.cpus} CPU(s)`;

/**
 * Each part's block in the file: its figures between two HTML comments (invisible once rendered),
 * the opening one carrying when it was measured and its targets, so that a later run of other
 * parts rewrites the Targets table without measuring this one again.
 */
const BLOCK = /<!-- part (\S+) (\{.*\}) -->\n([\s\S]*?)\n<!-- \/part \1 -->/g;

function blockOf(result: PartResult): string {
  const meta = JSON.stringify({ measured: result.measured, targets: result.targets });
  return [
    `<!-- part ${result.part} ${meta} -->`,
    `${result.markdown.trim().replace(/^(## .*)$/m, `$1\n\n_Measured ${describe(result.measured)}._`)}`,
    `<!-- /part ${result.part} -->`,
  ].join('\n');
}

/** The parts kept in a results file, in its order. */
export function readResults(markdown: string): PartResult[] {
  return [...markdown.matchAll(BLOCK)].map(([, part = '', meta = '{}', body = '']) => {
    const { measured, targets } = JSON.parse(meta) as Pick<PartResult, 'measured' | 'targets'>;
    // The line blockOf added under the heading goes: it is written again from `measured`.
    const markdown = body.replace(/\n\n_Measured [^\n]*_\.?(?=\n|$)/, '');
    return { part, measured, targets, markdown };
  });
}

/**
 * The results file after a run: the parts run now replace their earlier blocks (a new part goes
 * last), every other part's block stays as it was, with its date and load, and the Targets table
 * lists every target of every part at its latest figure (one figure measured by two parts shows
 * the newer).
 */
export function mergeResults(current: string, ran: readonly PartResult[], runAt: string): string {
  const parts = readResults(current);
  for (const result of ran) {
    const index = parts.findIndex((kept) => kept.part === result.part);
    if (index === -1) parts.push(result);
    else parts[index] = result;
  }
  const latest = new Map<string, { target: BenchTarget; measured: Measurement }>();
  for (const { targets, measured } of parts) {
    for (const target of targets) {
      const seen = latest.get(target.figure);
      if (!seen || seen.measured.at < measured.at) latest.set(target.figure, { target, measured });
    }
  }
  return [
    '# Benchmarks',
    '',
    'Against DynamoDB Local (in memory) and fauxqs in the same machine: absolute times are those of',
    'the emulators, not of AWS; items read and ratios carry over. Each part keeps its latest figures',
    'with the time and load average they were measured at (a part not run again keeps its own).',
    `Last run ${runAt.slice(0, 16).replace('T', ' ')} UTC: ${ran.map((result) => result.part).join(', ')}.`,
    '',
    '## Targets',
    '',
    markdownTable(
      ['figure', 'target', 'measured', 'met', 'measured at (load average)'],
      [...latest.values()].map(({ target, measured }) => [
        target.figure,
        target.target,
        target.measured,
        target.met === null ? '—' : target.met ? 'yes' : 'no',
        `${measured.at.slice(0, 16).replace('T', ' ')} (${measured.loadAverage[0]?.toFixed(1) ?? '?'})`,
      ]),
    ),
    '',
    ...parts.map((result) => `${blockOf(result)}\n`),
  ].join('\n');
}

/** Writes the parts run now into bench/results.md, keeping the others; returns the file's text. */
export function writeResults(ran: readonly PartResult[], runAt: string): string {
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const markdown = mergeResults(current, ran, runAt);
  writeFileSync(RESULTS, markdown);
  return markdown;
}
