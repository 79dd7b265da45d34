import { parseArgs } from 'node:util';

import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { LambdaClient } from '@aws-sdk/client-lambda';

import { contextOf } from '../lib/predeploy-checks';
import { applyRollback, lastUpdateOf, planRollback } from '../lib/rollback';
import { stageSettings } from '../lib/settings';

/**
 * Moves every function alias of a stage back to the version that was live before its last
 * deployment (docs/operations.md, "Rolling back a deployment"), in the stage's region:
 *
 *   npm run rollback -- -c stage=prod -c mailFrom=… -c alarmEmail=… [--before <ISO time>] [--apply]
 *
 * Without --apply it only prints what it would move.
 */
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    apply: { type: 'boolean' },
    context: { type: 'string', short: 'c', multiple: true },
  },
  allowPositionals: false,
});
const settings = stageSettings((key) => contextOf(process.argv.slice(2))[key]);
const clients = {
  cloudFormation: new CloudFormationClient({ region: settings.region }),
  lambda: new LambdaClient({ region: settings.region }),
};
const before = values.before
  ? new Date(values.before)
  : await lastUpdateOf(settings.stackName, clients.cloudFormation);
if (!before || Number.isNaN(before.getTime())) {
  console.error(
    `${settings.stackName} (${settings.region}) was never updated: there is no earlier deployment to go back to.`,
  );
  process.exit(1);
}
const moves = await planRollback(settings.stackName, before, clients);
for (const move of moves) {
  const name = move.alias.split(':function:')[1];
  console.log(
    move.to ? `${name}: ${move.from} -> ${move.to}` : `${name}: stays on ${move.from} (${move.reason})`,
  );
}
const moving = moves.filter((move) => move.to).length;
if (!values.apply) {
  console.log(
    `\n${moving} alias(es) would move back to before ${before.toISOString()}; run again with --apply.`,
  );
} else {
  await applyRollback(moves, clients.lambda);
  console.log(`\n${moving} alias(es) moved back to before ${before.toISOString()} in ${settings.region}.`);
}
