import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '../lib/local/free-port';
import { kilobytes, LOGIN_BUDGET, type PageWeight, pageWeight } from '../web/build/login-budget';
import type { BenchTarget } from './results-file';

/**
 * First load of /login: the JavaScript and CSS it downloads, gzipped, read from the
 * Vite manifest of a fresh build, and Lighthouse's performance score and Largest Contentful Paint
 * in mobile (simulated slow 4G, mid-range phone) and desktop presets, each the median of a few
 * runs with a fresh Chromium profile, against `npm start`'s server.
 */
export const FIRST_LOAD_TARGETS = {
  javascriptBytes: LOGIN_BUDGET.javascriptBytes,
  cssBytes: LOGIN_BUDGET.cssBytes,
  mobileScore: 90,
  mobileLcpMs: 2_500,
} as const;

/**
 * The public pages a prospect opens first, pre-rendered like /login: each held to the same mobile
 * targets (Lighthouse score and LCP).
 */
export const PUBLIC_PAGES = ['/', '/discover', '/privacy', '/payment-success'] as const;

/** The title of this part's section in bench/results.md. */
export const FIRST_LOAD_SECTION = 'First load of /login and the public pages';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export interface LighthouseFigures {
  readonly preset: 'mobile' | 'desktop';
  readonly runs: number;
  /** Medians over the runs. */
  readonly score: number;
  readonly lcpMs: number;
  readonly fcpMs: number;
  readonly totalBlockingTimeMs: number;
  /** Bytes over the network for the whole load (compressed as served). */
  readonly transferBytes: number;
}

export interface FirstLoadFigures {
  readonly startedAt: string;
  /** The machine's one-minute load average when Lighthouse started: TBT grows with it. */
  readonly loadAverage: number;
  readonly weight: PageWeight;
  readonly lighthouse: readonly LighthouseFigures[];
  /** Lighthouse mobile on each public page. */
  readonly publicPages: readonly (LighthouseFigures & { readonly path: string })[];
}

export interface FirstLoadBenchOptions {
  readonly runs: number;
  readonly log: (line: string) => void;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Starts the local runtime as `npm start` does (bin/local.ts over web/dist) on a free port. */
async function startLocalRuntime(): Promise<{ readonly url: string; readonly stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'bench-first-load-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDirectory },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Le runtime local n'a pas démarré :\n${output}`)),
      180_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Admin licence key: \S+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Le runtime local s'est arrêté (code ${code}) :\n${output}`));
    });
  });
  return {
    url: `http://localhost:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

interface LighthouseReport {
  readonly categories: { readonly performance: { readonly score: number } };
  readonly audits: Record<string, { readonly numericValue?: number }>;
}

/** One Lighthouse run (its CLI, a fresh headless Chromium each time), performance only. */
function lighthouse(url: string, preset: 'mobile' | 'desktop'): LighthouseReport {
  const cli = join(
    dirname(createRequire(import.meta.url).resolve('lighthouse/package.json')),
    'cli',
    'index.js',
  );
  const output = execFileSync(
    process.execPath,
    [
      cli,
      url,
      '--only-categories=performance',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--chrome-flags=--headless --no-sandbox',
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ],
    { env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
  );
  return JSON.parse(output) as LighthouseReport;
}

function lighthouseFigures(url: string, preset: 'mobile' | 'desktop', runs: number): LighthouseFigures {
  const reports = Array.from({ length: runs }, () => lighthouse(url, preset));
  const audit = (name: string) =>
    median(reports.map((report) => report.audits[name]?.numericValue ?? Number.NaN));
  return {
    preset,
    runs,
    score: median(reports.map((report) => Math.round(report.categories.performance.score * 100))),
    lcpMs: audit('largest-contentful-paint'),
    fcpMs: audit('first-contentful-paint'),
    totalBlockingTimeMs: audit('total-blocking-time'),
    transferBytes: audit('total-byte-weight'),
  };
}

/** Builds the SPA (the build itself fails past the /login budget), serves it, measures /login. */
export async function runFirstLoadBench(options: FirstLoadBenchOptions): Promise<FirstLoadFigures> {
  options.log('Premier chargement de /login : construction du site…');
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'ignore',
    },
  );
  const weight = pageWeight(join(ROOT, 'web/dist'));
  const runtime = await startLocalRuntime();
  const startedAt = new Date().toISOString();
  const loadAverage = loadavg()[0] ?? 0;
  try {
    const lighthouseRuns: LighthouseFigures[] = [];
    for (const preset of ['mobile', 'desktop'] as const) {
      options.log(`Premier chargement de /login : Lighthouse ${preset}, ${options.runs} passage(s)…`);
      lighthouseRuns.push(lighthouseFigures(`${runtime.url}/login`, preset, options.runs));
    }
    const publicPages = PUBLIC_PAGES.map((path) => {
      options.log(`Premier chargement de ${path} : Lighthouse mobile, ${options.runs} passage(s)…`);
      return { path, ...lighthouseFigures(`${runtime.url}${path}`, 'mobile', options.runs) };
    });
    return { startedAt, loadAverage, weight, lighthouse: lighthouseRuns, publicPages };
  } finally {
    await runtime.stop();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (met: boolean) => (met ? 'atteint' : '**non atteint**');

/** /login's figures against their targets (the Targets table of bench/results.md, and this part's). */
export function firstLoadTargets(figures: FirstLoadFigures): BenchTarget[] {
  const { weight } = figures;
  const mobile = figures.lighthouse.find((run) => run.preset === 'mobile');
  return [
    {
      figure: 'JavaScript loaded by /login, gzipped',
      measured: kilobytes(weight.javascript.gzipBytes),
      target: `≤ ${kilobytes(FIRST_LOAD_TARGETS.javascriptBytes)}`,
      met: weight.javascript.gzipBytes <= FIRST_LOAD_TARGETS.javascriptBytes,
    },
    {
      figure: 'CSS loaded by /login, gzipped',
      measured: kilobytes(weight.css.gzipBytes),
      target: `≤ ${kilobytes(FIRST_LOAD_TARGETS.cssBytes)}`,
      met: weight.css.gzipBytes <= FIRST_LOAD_TARGETS.cssBytes,
    },
    ...(mobile
      ? [
          {
            figure: 'Lighthouse mobile performance',
            measured: String(mobile.score),
            target: `≥ ${FIRST_LOAD_TARGETS.mobileScore}`,
            met: mobile.score >= FIRST_LOAD_TARGETS.mobileScore,
          },
          {
            figure: 'Lighthouse mobile LCP',
            measured: seconds(mobile.lcpMs),
            target: `≤ ${seconds(FIRST_LOAD_TARGETS.mobileLcpMs)}`,
            met: mobile.lcpMs <= FIRST_LOAD_TARGETS.mobileLcpMs,
          },
        ]
      : []),
    ...figures.publicPages.flatMap((page) => [
      {
        figure: `Lighthouse mobile performance of ${page.path}`,
        measured: String(page.score),
        target: `≥ ${FIRST_LOAD_TARGETS.mobileScore}`,
        met: page.score >= FIRST_LOAD_TARGETS.mobileScore,
      },
      {
        figure: `Lighthouse mobile LCP of ${page.path}`,
        measured: seconds(page.lcpMs),
        target: `≤ ${seconds(FIRST_LOAD_TARGETS.mobileLcpMs)}`,
        met: page.lcpMs <= FIRST_LOAD_TARGETS.mobileLcpMs,
      },
    ]),
  ];
}

/** One row of a Lighthouse table: what was measured, then its medians. */
const lighthouseRow = (what: string, run: LighthouseFigures) =>
  `| ${what} | ${run.runs} | ${run.score} | ${seconds(run.lcpMs)} | ${seconds(run.fcpMs)} | ` +
  `${Math.round(run.totalBlockingTimeMs)} ms | ${kilobytes(run.transferBytes)} |`;

export function firstLoadMarkdown(figures: FirstLoadFigures): string {
  const { weight } = figures;
  const rows = firstLoadTargets(figures).map((target) => [
    target.figure,
    target.measured,
    target.target,
    verdict(target.met === true),
  ]);
  return [
    '### /login against its targets',
    '',
    '| figure | measured | target | |',
    '| --- | ---: | ---: | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    `JavaScript: ${weight.javascript.files.length} files, ${kilobytes(weight.javascript.rawBytes)} raw; CSS: ` +
      `${weight.css.files.length} files, ${kilobytes(weight.css.rawBytes)} raw (from the Vite manifest, zlib gzip level 6).`,
    '',
    '### Lighthouse on /login (medians, fresh profile each run, local server with brotli)',
    '',
    `Run ${figures.startedAt}, load average ${figures.loadAverage.toFixed(1)} on ${cpus().length} CPU(s) at the ` +
      'start: Lighthouse multiplies the main-thread time it observes, so total blocking time and the mobile ' +
      'score fall on a busy machine.',
    '',
    '| preset | runs | performance | LCP | FCP | total blocking time | transferred |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.lighthouse.map((run) => lighthouseRow(run.preset, run)),
    '',
    '### Lighthouse mobile on the public pages (pre-rendered like /login; medians)',
    '',
    '| page | runs | performance | LCP | FCP | total blocking time | transferred |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.publicPages.map((page) => lighthouseRow(page.path, page)),
  ].join('\n');
}

/** `npx tsx bench/first-load.ts`: this part alone, its section of bench/results.md replaced. */
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await runFirstLoadBench({ runs: 3, log: (line) => console.log(line) });
  const markdown = firstLoadMarkdown(figures);
  console.log(`\n${markdown}`);
  const { measuredNow, writeResults } = await import('./results-file');
  writeResults(
    [
      {
        part: 'first-load',
        measured: measuredNow(),
        targets: firstLoadTargets(figures),
        markdown: `## ${FIRST_LOAD_SECTION}\n\n${markdown}`,
      },
    ],
    figures.startedAt,
  );
}
