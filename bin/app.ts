import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';

import { AssistantJuridiqueStack } from '../lib/stack';

/**
 * The CDK app (`cdk.json`: `npx tsx bin/app.ts`). Context:
 * - `siteDir`: the built SPA, relative to the repository root or absolute (default `web/dist`).
 * Account and region come from the CLI's profile (CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION).
 */
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

const app = new App();
const siteDirContext: unknown = app.node.tryGetContext('siteDir') ?? 'web/dist';
if (typeof siteDirContext !== 'string' || siteDirContext === '') {
  throw new Error('Context siteDir must be a directory path (-c siteDir=web/dist)');
}
const siteDir = isAbsolute(siteDirContext) ? siteDirContext : resolve(repositoryRoot, siteDirContext);

new AssistantJuridiqueStack(app, 'AssistantJuridique', {
  description: 'Assistant IA pour cabinets d’avocats : site, API, données et clés du serveur',
  siteDir,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// Every finding of both packs is an error or warning at synthesis unless suppressed in code
// next to its resource, with its reason.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
Aspects.of(app).add(new ServerlessChecks({ verbose: true }));
