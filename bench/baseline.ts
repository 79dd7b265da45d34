import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The figures measured on the code as it was before the delivery work (`npm run bench -- <parts>
 * --record-baseline` on that commit), kept in `bench/baseline.json` so that every later run prints
 * them beside its own: before and after, measured the same way.
 */

const FILE = fileURLToPath(new URL('./baseline.json', import.meta.url));

export interface Baseline {
  readonly commit: string;
  readonly at: string;
  /** Per part: the figures that part prints in its before column, by name. */
  readonly parts: Readonly<Record<string, Readonly<Record<string, number | string | null>>>>;
}

export function readBaseline(): Baseline | null {
  if (!existsSync(FILE)) return null;
  return JSON.parse(readFileSync(FILE, 'utf8')) as Baseline;
}

/** Records one part's figures as the baseline, at the commit checked out now. */
export function recordBaseline(
  part: string,
  figures: Readonly<Record<string, number | string | null>>,
): void {
  const current = readBaseline();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const baseline: Baseline = {
    commit: current?.commit ?? commit,
    at: current?.at ?? new Date().toISOString(),
    parts: { ...(current?.parts ?? {}), [part]: figures },
  };
  writeFileSync(FILE, `${JSON.stringify(baseline, null, 2)}\n`);
}

/** A figure of the baseline, or null when it was not measured then. */
export function before(part: string, figure: string): number | string | null {
  return readBaseline()?.parts[part]?.[figure] ?? null;
}

/** The heading of a before column: the commit it was measured on. */
export function beforeHeading(): string {
  const baseline = readBaseline();
  return baseline ? `before (${baseline.commit})` : 'before';
}
