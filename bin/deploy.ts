import { spawnSync } from 'node:child_process';

import { checkStageOrExit, contextOf } from '../lib/predeploy-checks';
import { stageSettings } from '../lib/settings';

/**
 * `npm run deploy -- <cdk deploy flags>`: the pre-deploy checks, then `cdk deploy` of every stack
 * of the stage (`--all`), told the account's Lambda quota so that the concurrency alarm sits at
 * 80 % of the real one. Nothing is deployed when a check fails.
 */
const args = process.argv.slice(2);
const context = contextOf(args);
const settings = stageSettings((key) => context[key]);
const report = await checkStageOrExit(settings, 'nothing deployed; fix the failed checks above first');
const quota =
  context.lambdaConcurrencyQuota === undefined && report.lambdaConcurrencyQuota !== undefined
    ? ['-c', `lambdaConcurrencyQuota=${report.lambdaConcurrencyQuota}`]
    : [];
// Every stack of the stage unless the command names some.
const all = args.some((arg) => arg.startsWith(settings.stackName)) ? [] : ['--all'];
const cdk = spawnSync('npx', ['cdk', 'deploy', ...all, ...args, ...quota], { stdio: 'inherit' });
process.exit(cdk.status ?? 1);
