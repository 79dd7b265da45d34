import { readFile, writeFile } from 'node:fs/promises';

import { repositoryPath } from '../lib/constructs/repository';
import { DOCUMENTED_CONTEXT, readBenchCostUnits, synthesizeOffline } from '../lib/offline-synthesis';
import {
  alarmRows,
  firmCostOf,
  idleCostOf,
  REFERENCE_FIRM,
  renderAlarmTable,
  renderCostTable,
  renderResourceCounts,
  replaceGenerated,
} from '../lib/operations-figures';

/**
 * Writes docs/operations.md's generated sections (alarm table, resource counts, idle and per-firm
 * cost) from the prod templates, synthesized offline, and the bench's `bench/cost-units.json`.
 */
const stacks = await synthesizeOffline(DOCUMENTED_CONTEXT);
const bench = readBenchCostUnits();
const path = repositoryPath('docs', 'operations.md');
let document = await readFile(path, 'utf8');
document = replaceGenerated(document, 'alarms', renderAlarmTable(alarmRows(stacks)));
document = replaceGenerated(document, 'resources', renderResourceCounts(stacks));
document = replaceGenerated(
  document,
  'idle-cost',
  renderCostTable('prod stage at rest', idleCostOf(stacks, bench)),
);
document = replaceGenerated(
  document,
  'firm-cost',
  renderCostTable('one firm', firmCostOf(bench, REFERENCE_FIRM)),
);
await writeFile(path, document);
console.log(`docs/operations.md: figures of ${stacks.map((stack) => stack.stackName).join(', ')} written`);
