import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { WorkflowRepository } from '../functions/data/directory/workflows';
import type { Table } from '../functions/data/table/table';
import type { WorkflowRecord } from '../functions/domain/directory/ports';
import { searchTermsOf } from '../functions/domain/directory/search-terms';
import { LIST_PAGE } from '../shared/constants';
import { AutomationLoad } from './automation-load';
import { percentile } from './percentile';
import { type BenchTarget, markdownTable } from './results-file';
import { benchWorkflow, formatFigure } from './scheduler';

/**
 * `npm run bench -- search`: the admin's search among the scale part's 200,000 automations, as the
 * server runs it (`WorkflowRepository.find`, the code behind GET /api/workflows?q=) against
 * DynamoDB Local: the first page of each of 20 searches, from common words to rare ones, with the
 * Query pages, BatchGetItems and items DynamoDB read for it (a middleware on the real client).
 */

/** A fixed pseudo-random sequence (mulberry32), so that every run loads the same automations. */
export function randomOf(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TASKS = ['Relance', 'Classement', 'Résumé', 'Gestion', 'Suivi', 'Rappel', 'Facturation', 'Tri'];
const OBJECTS = ['pièces', 'e-mails', 'audiences', 'factures', 'contrats', 'courriers', 'échéances', 'actes'];
const FAMILIES = [
  'Dupont',
  'Martin',
  'Lefèvre',
  'Bernard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Michel',
  'Garcia',
  'David',
  'Bertrand',
  'Roux',
  'Vincent',
  'Fournier',
  'Morel',
  'Girard',
  'André',
  'Mercier',
  'Blanc',
  'Guérin',
  'Boyer',
  'Garnier',
  'Chevalier',
  'François',
  'Legrand',
  'Gauthier',
  'Perrin',
];
const CATEGORIES = ['Famille', 'Immobilier', 'Travail', 'Pénal', 'Sociétés', 'Successions', 'Fiscal', 'Baux'];
const TAGS = ['urgent', 'mensuel', 'client VIP', 'contentieux', 'conseil', 'archivage', 'relances', 'RGPD'];

/** The `index`-th automation of the bench: a name, a description with a client number, a category, tags. */
export function automationOf(index: number, random: () => number, firms: number): WorkflowRecord {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const client = 1 + Math.floor(random() * 100_000);
  const tags = TAGS.filter(() => random() < 0.12);
  return benchWorkflow({
    name: `${pick(TASKS)} ${pick(OBJECTS)} ${pick(FAMILIES)}`,
    description: `${pick(TASKS)} des ${pick(OBJECTS)} du client ${client}`,
    category: random() < 0.8 ? pick(CATEGORIES) : null,
    tags,
    lawyerEmail: `avocat@cabinet-${index % firms}.fr`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
  });
}

/** Common words, word beginnings, two words, rare client numbers, a word matching nothing. */
export const SEARCHES = [
  'relance',
  'dupont',
  'fac',
  'succession',
  'famille',
  'urgent',
  'relance dupont',
  'suivi audiences martin',
  'client 777',
  'client 4242',
  '98765',
  'équipe',
  'gestion contrats lefèvre',
  'résumé',
  'rgpd archivage',
  'baux girard',
  'e mails',
  'pénal 1234',
  'relancez',
  'zzz',
] as const;

export interface SearchFigures {
  readonly q: string;
  readonly firstPageMs: number;
  readonly found: number;
  readonly queryPages: number;
  readonly batchGets: number;
  /** Items DynamoDB read for it: the Queries' ScannedCount and the BatchGetItems' items. */
  readonly itemsRead: number;
}

export interface SearchBench {
  readonly automations: number;
  readonly firms: number;
  readonly itemsLoaded: number;
  readonly loadSeconds: number;
  /** The machine's one-minute load average when the load ended. */
  readonly loadAverage: number;
  readonly searches: readonly SearchFigures[];
}

/**
 * Loads `automations` automations as the product's creation writes them (workflow, schedule,
 * search-entry and counter items; `AutomationLoad`) and runs the searches.
 */
export async function runSearchBench(options: {
  readonly table: Table;
  readonly automations: number;
  readonly firms: number;
  readonly log: (line: string) => void;
}): Promise<SearchBench> {
  const { table, automations, log } = options;
  const random = randomOf(20_261_127);
  const loadStart = performance.now();
  const load = new AutomationLoad(table);
  const chunk = 5_000;
  for (let start = 0; start < automations; start += chunk) {
    await load.write(
      Array.from({ length: Math.min(chunk, automations - start) }, (_, offset) =>
        automationOf(start + offset, random, options.firms),
      ),
    );
    const seconds = (performance.now() - loadStart) / 1000;
    if ((start + chunk) % 20_000 === 0)
      log(
        `recherche : ${formatFigure(start + chunk)} automatisations chargées, ${formatFigure(load.items / seconds)} items/s (charge ${formatFigure(loadavg()[0] ?? 0, 1)})`,
      );
  }
  await load.finish();
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const loadAverage = loadavg()[0] ?? 0;

  const counted = { queryPages: 0, batchGets: 0, itemsRead: 0 };
  table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as {
        ScannedCount?: number;
        Responses?: Record<string, unknown[]>;
      };
      if (context.commandName === 'QueryCommand') {
        counted.queryPages += 1;
        counted.itemsRead += output.ScannedCount ?? 0;
      }
      if (context.commandName === 'BatchGetItemCommand') {
        counted.batchGets += 1;
        counted.itemsRead += Object.values(output.Responses ?? {}).reduce(
          (sum, items) => sum + items.length,
          0,
        );
      }
      return result;
    },
    { step: 'initialize', name: 'search-bench-counts' },
  );
  const repository = new WorkflowRepository(table);
  const searches: SearchFigures[] = [];
  try {
    for (const q of SEARCHES) {
      Object.assign(counted, { queryPages: 0, batchGets: 0, itemsRead: 0 });
      const started = performance.now();
      const page = await repository.find({ limit: LIST_PAGE.default, terms: searchTermsOf(q) });
      searches.push({ q, firstPageMs: performance.now() - started, found: page.items.length, ...counted });
    }
  } finally {
    table.doc.middlewareStack.remove('search-bench-counts');
  }
  return { automations, firms: options.firms, itemsLoaded: load.items, loadSeconds, loadAverage, searches };
}

const p50 = (figures: readonly number[]) =>
  percentile(
    [...figures].sort((a, b) => a - b),
    50,
  );

export function searchMarkdown(bench: SearchBench): string {
  return [
    `${formatFigure(bench.automations)} automations over ${formatFigure(bench.firms)} firms (${formatFigure(bench.itemsLoaded)} items with their schedule items, search entries and counters, as the product's creation writes them, loaded by BatchWriteItem in ${formatFigure(bench.loadSeconds)} s: ${formatFigure(bench.itemsLoaded / bench.loadSeconds)} items/s, load average ${formatFigure(bench.loadAverage, 1)} at its end) in DynamoDB Local in memory; first page (${LIST_PAGE.default} at most) of each search through \`WorkflowRepository.find\`, one after the other.`,
    '',
    markdownTable(
      ['search', 'first page (ms)', 'found', 'Query pages', 'BatchGetItem', 'items read'],
      bench.searches.map((search) => [
        `\`${search.q}\``,
        formatFigure(search.firstPageMs),
        formatFigure(search.found),
        formatFigure(search.queryPages),
        formatFigure(search.batchGets),
        formatFigure(search.itemsRead),
      ]),
    ),
  ].join('\n');
}

export function searchTargets(bench: SearchBench): BenchTarget[] {
  const times = bench.searches.map((search) => search.firstPageMs);
  const pages = Math.max(...bench.searches.map((search) => search.queryPages));
  const items = bench.searches.map((search) => search.itemsRead);
  const first = p50(times);
  return [
    {
      figure: `search among ${formatFigure(bench.automations)} automations, first page, p50 of ${bench.searches.length}`,
      target: '≤ 1 s locally',
      measured: `${formatFigure(first)} ms (max ${formatFigure(Math.max(...times))} ms)`,
      met: first <= 1_000,
    },
    {
      figure: 'search: pages of the store read for a first page, most of any search',
      target: '≤ 10',
      measured: `${formatFigure(pages)} Query pages`,
      met: pages <= 10,
    },
    {
      figure: 'search: items read per search',
      target: 'reported',
      measured: `p50 ${formatFigure(p50(items))}, max ${formatFigure(Math.max(...items))}`,
      met: null,
    },
  ];
}
