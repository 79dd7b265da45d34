import { checkStageOrExit, contextOf } from '../lib/predeploy-checks';
import { stageSettings } from '../lib/settings';

/**
 * Checks that the account can run the stage before anything is created (docs/operations.md,
 * "Before the first deployment"); `npm run deploy` runs it first. Same `-c key=value` flags:
 *
 *   npm run predeploy-check -- -c stage=prod -c mailFrom=licences@cabinet.example -c alarmEmail=…
 */
const context = contextOf(process.argv.slice(2));
await checkStageOrExit(
  stageSettings((key) => context[key]),
  'fix the failed checks above, then deploy again',
);
