import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { buildDeployment } from '../lib/deployment';
import { stageSettings } from '../lib/settings';

/**
 * The CDK app (`cdk.json`: `npx tsx bin/app.ts`). Context (`-c key=value`, checked before anything
 * is built; `lib/settings.ts`, docs/operations.md):
 * - `stage`: dev (default) or prod; the stack is `AssistantJuridique-<stage>`;
 * - `mailFrom` (required): the SES sender of the billing e-mails;
 * - `alarmEmail` (required for prod): receives the alarms;
 * - `region`: eu-west-3 unless given (not the CLI profile's region: the data is French legal data);
 * - `keysReplicaRegion`, `domainName`, `waf`: see docs/operations.md (a domain or a WAF adds the
 *   stage's us-east-1 stack `AssistantJuridique-<stage>-edge`);
 * - `siteDir`: the built SPA, relative to the repository root or absolute (default `web/dist`).
 */
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

const app = new App();
const siteDirContext: unknown = app.node.tryGetContext('siteDir') ?? 'web/dist';
if (typeof siteDirContext !== 'string' || siteDirContext === '') {
  throw new Error('Context siteDir must be a directory path (-c siteDir=web/dist)');
}
const siteDir = isAbsolute(siteDirContext) ? siteDirContext : resolve(repositoryRoot, siteDirContext);
const settings = stageSettings((key) => app.node.tryGetContext(key));

buildDeployment(app, settings, { siteDir, account: process.env.CDK_DEFAULT_ACCOUNT });

// Every finding of both packs is an error or warning at synthesis unless suppressed in code
// next to its resource, with its reason.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
Aspects.of(app).add(new ServerlessChecks({ verbose: true }));
