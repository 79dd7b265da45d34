import { contextOf, predeployClients, runPredeployChecks } from '../lib/predeploy-checks';
import { stageSettings } from '../lib/settings';

/**
 * Checks that the account can run the stage before anything is created (docs/operations.md,
 * "First deployment"); `npm run deploy` runs it first. Same `-c key=value` flags as the deploy:
 *
 *   npm run predeploy-check -- -c stage=prod -c mailFrom=licences@cabinet.example -c alarmEmail=…
 */
const context = contextOf(process.argv.slice(2));
const settings = stageSettings((key) => context[key]);
const report = await runPredeployChecks(settings, predeployClients(settings.region));
for (const result of report.results)
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.check}: ${result.message}`);
if (!report.ok) {
  console.error(
    `\n${settings.stackName} (${settings.region}): fix the failed checks above, then deploy again.`,
  );
  process.exit(1);
}
