import { join } from 'node:path';

import { measureAdminWorkflowsTraffic, type PageTraffic } from './admin-workflows-page';
import { seedDirectory, signIn, startRuntime } from './api';
import type { BenchTarget } from './results-file';
import { formatFigure, markdownTable } from './scheduler';

/** /admin/workflows at each size, the same visit: what the API and the browser pay for it. */
export interface AdminPageBench {
  readonly lawyers: number;
  readonly traffic: readonly PageTraffic[];
}

/**
 * The local runtime as `npm start` starts it, `lawyers` lawyers and automations created through
 * the API up to each of `sizes` in turn, and one visit of /admin/workflows measured at each size.
 */
export async function runAdminPageBench(options: {
  readonly sizes: readonly number[];
  readonly lawyers: number;
  readonly runs: number;
  readonly watchMs: number;
  /** A folder to save the page as seen at each size (admin-workflows-<size>.png), if any. */
  readonly screenshotsDirectory?: string;
  readonly log: (line: string) => void;
}): Promise<AdminPageBench> {
  options.log('Page /admin/workflows : démarrage du runtime local (comme npm start)...');
  const runtime = await startRuntime(options.log);
  try {
    const admin = await signIn(runtime.baseUrl, runtime.keys.admin);
    const traffic: PageTraffic[] = [];
    let seeded = 0;
    for (const size of options.sizes) {
      options.log(`  ${size} automatisations de ${options.lawyers} avocats, créées par l'API...`);
      await seedDirectory(runtime.baseUrl, admin, { lawyers: options.lawyers, from: seeded, to: size });
      seeded = size;
      options.log(
        `  visite de /admin/workflows (${options.runs} ouvertures, ${options.watchMs / 1000} s observées)...`,
      );
      const visit = await measureAdminWorkflowsTraffic({
        baseUrl: runtime.baseUrl,
        licenseKey: runtime.keys.admin,
        workflows: size,
        runs: options.runs,
        watchMs: options.watchMs,
        ...(options.screenshotsDirectory
          ? { screenshotPath: join(options.screenshotsDirectory, `admin-workflows-${size}.png`) }
          : {}),
      });
      // Said as soon as measured: the next size takes long to seed.
      options.log(
        `  ${size} : ${visit.requests} requêtes, ${kb(visit.replyBytes)}, tas ${formatFigure(visit.heapMb, 1)} MB, première carte ${formatFigure(visit.firstCardMs)} ms`,
      );
      traffic.push(visit);
    }
    return { lawyers: options.lawyers, traffic };
  } finally {
    await runtime.stop();
  }
}

/** The budgets of one visit of /admin/workflows, whatever the table holds. */
export const ADMIN_PAGE_TARGETS = {
  requests: 4,
  replyBytes: 150_000,
  firstCardMs: 1_000,
  growthRatio: 1.2,
} as const;

const kb = (bytes: number) => `${formatFigure(bytes / 1000, 1)} kB`;

/** The figures of each size, the largest size's beside its budgets, the growth between the sizes. */
export function adminPageMarkdown(bench: AdminPageBench): string {
  const rows = bench.traffic.map((traffic) => [
    formatFigure(traffic.workflows),
    `${formatFigure(traffic.firstCardMs)} ms`,
    traffic.firstCardRunsMs.map((ms) => formatFigure(ms)).join(', '),
    formatFigure(traffic.requests),
    kb(traffic.replyBytes),
    `${formatFigure(traffic.heapMb, 1)} MB`,
    formatFigure(traffic.domNodes),
  ]);
  const routes = bench.traffic.flatMap((traffic) =>
    Object.entries(traffic.byRoute).map(([route, figures]) => [
      formatFigure(traffic.workflows),
      route,
      formatFigure(figures.requests),
      kb(figures.replyBytes),
    ]),
  );
  const watched = bench.traffic[0]?.watchedMs ?? 0;
  return [
    `Automations of ${formatFigure(bench.lawyers)} lawyers created through the API; one admin tab (assets cached), ` +
      `requests counted from the navigation until ${formatFigure(watched / 1000)} s after the first card; ` +
      'heap read after a garbage collection at the end.',
    '',
    markdownTable(
      ['automations', 'first card (median)', 'runs', 'API requests', 'API replies', 'JS heap', 'DOM nodes'],
      rows,
    ),
    '',
    markdownTable(['automations', 'route', 'requests', 'replies'], routes),
    '',
  ].join('\n');
}

/** Each budget beside its figure: the largest size's, and the growth from the smallest. */
export function adminPageTargets(bench: AdminPageBench): BenchTarget[] {
  const small = bench.traffic[0];
  const large = bench.traffic.at(-1);
  if (!small || !large) return [];
  const label = `/admin/workflows, ${formatFigure(large.workflows)} automations of ${formatFigure(bench.lawyers)} lawyers`;
  const ratio = (of: (traffic: PageTraffic) => number) => of(large) / Math.max(of(small), 1e-9);
  const growth = (name: string, of: (traffic: PageTraffic) => number) => {
    const value = ratio(of);
    return {
      figure: `/admin/workflows ${name}, ${formatFigure(large.workflows)} vs ${formatFigure(small.workflows)} automations`,
      target: `ratio ≤ ${ADMIN_PAGE_TARGETS.growthRatio}`,
      measured: `${formatFigure(value, 2)} (${formatFigure(of(small), 1)} → ${formatFigure(of(large), 1)})`,
      met: value <= ADMIN_PAGE_TARGETS.growthRatio,
    };
  };
  const window = `load + ${formatFigure(large.watchedMs / 1000)} s`;
  return [
    {
      figure: `${label}: API requests, ${window}`,
      target: `≤ ${ADMIN_PAGE_TARGETS.requests}`,
      measured: formatFigure(large.requests),
      met: large.requests <= ADMIN_PAGE_TARGETS.requests,
    },
    {
      figure: `${label}: API replies, ${window}`,
      target: `≤ ${kb(ADMIN_PAGE_TARGETS.replyBytes)}`,
      measured: kb(large.replyBytes),
      met: large.replyBytes <= ADMIN_PAGE_TARGETS.replyBytes,
    },
    {
      figure: `${label}: first card (median)`,
      target: `≤ ${formatFigure(ADMIN_PAGE_TARGETS.firstCardMs)} ms`,
      measured: `${formatFigure(large.firstCardMs)} ms`,
      met: large.firstCardMs <= ADMIN_PAGE_TARGETS.firstCardMs,
    },
    // One size visited: no growth to read.
    ...(small === large
      ? []
      : [
          growth('API requests', (traffic) => traffic.requests),
          growth('API reply bytes', (traffic) => traffic.replyBytes),
          growth('JS heap after 30 s', (traffic) => traffic.heapMb),
        ]),
  ];
}
