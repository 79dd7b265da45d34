import { parseArgs } from 'node:util';
import { createTable } from '../functions/data/table/table';
import { migrateAdminLists } from '../functions/migrations/admin-lists-migration';
import { migrateDirectory } from '../functions/migrations/directory-counts-and-search';
import { migrateFailingSet } from '../functions/migrations/failing-set-migration';
import { migratePausedList } from '../functions/migrations/paused-list-migration';
import { migrateRunEnds } from '../functions/migrations/run-ends-migration';
import { migrateWorkflows } from '../functions/migrations/workflow-migration';
import { DEFAULT_REGION } from '../lib/settings';

/**
 * Moves the items of a deployed table to the current shape, once after the deploy that introduced
 * the workflows' schedule items, the sharded failing set (docs/operations.md), the directory's
 * searches and counters, the admin lists in one index partition each, or the paused list
 * (docs/data-model.md):
 *
 *   npm run migrate -- --table <TableName output>
 *
 * Idempotent and safe while the application runs (functions/migrations/workflow-migration.ts): run it
 * again when it reports workflows not migrated. Uses the caller's AWS credentials in `--region`
 * (the stages' eu-west-3 unless given, never the profile's); `--endpoint` points it at DynamoDB Local.
 */
const { values } = parseArgs({
  options: { table: { type: 'string' }, endpoint: { type: 'string' }, region: { type: 'string' } },
});
if (!values.table) {
  console.error(
    'Usage : npm run migrate -- --table <nom de la table> [--region <région, eu-west-3 par défaut>] [--endpoint <URL de DynamoDB Local>]',
  );
  process.exit(2);
}
const table = createTable(
  values.table,
  values.endpoint ? { endpoint: values.endpoint } : { region: values.region ?? DEFAULT_REGION },
);
const run = await migrateWorkflows(table);
console.log(
  `Automatisations lues : ${run.read} ; migrées : ${run.migrated} ; non migrées (modifiées pendant la migration) : ${run.failed}`,
);
const lists = await migrateAdminLists(table);
console.log(
  `Avocats, dossiers et journal : ${lists.read} éléments lus dans les anciennes partitions ; ${lists.moved} déplacés`,
);
const failing = await migrateFailingSet(table);
console.log(
  `Automatisations en échec lues : ${failing.read} ; déplacées : ${failing.moved} ; retirées (supprimées ou rétablies) : ${failing.dropped}`,
);
const directory = await migrateDirectory(table);
console.log(
  `Annuaire : ${directory.workflows} automatisations, ${directory.lawyers} avocats, ${directory.folders} dossiers recomptés ; ${directory.indexed} ajoutés à la recherche ; ${directory.claims} clés de licence rattachées à l’e-mail de leur avocat`,
);
const paused = await migratePausedList(table);
console.log(
  `Automatisations suspendues sans entrée dans la liste des suspendues : ${paused.found} ; ajoutées : ${paused.indexed}`,
);
const runEnds = await migrateRunEnds(table);
console.log(
  `Exécutions terminées marquées à l’ancienne : ${runEnds.markers} ; placées à leur clé d’exécution : ${runEnds.moved} ; laissées : ${runEnds.left}`,
);
if (run.failed > 0) {
  console.error('Relancez la commande : elle reprend les automatisations restantes.');
  process.exit(1);
}
