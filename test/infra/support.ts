import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';

import { repositoryPath } from '../../lib/constructs/repository';
import { buildDeployment, type Deployment } from '../../lib/deployment';
import { DOCUMENTED_CONTEXT } from '../../lib/offline-synthesis';
import { type StageSettings, stageSettings } from '../../lib/settings';
import type { AssistantJuridiqueStack } from '../../lib/stack';

/** The account and region the test stack is synthesized for, as `cdk deploy` would. */
export const TEST_ENV = { account: '123456789012', region: 'eu-west-3' } as const;

/** The context values `npm run synth` is given for prod in docs/operations.md. */
export const PROD_CONTEXT = DOCUMENTED_CONTEXT;

/** The settings of a stage from context values, as `bin/app.ts` reads them. */
export const settingsFrom = (context: Readonly<Record<string, unknown>>): StageSettings =>
  stageSettings((key) => context[key]);

/**
 * An app with the feature flags of `cdk.json`, so tests synthesize what `cdk synth` does — except
 * bundling: `aws:cdk:bundling-stacks` empty skips esbuild for every function (most of the infra
 * tests' time). The bundles themselves are built and measured once, by `bundles.test.ts`, with
 * the same settings (`lib/constructs/bundling.ts`).
 */
export function createTestApp(): App {
  const { context } = JSON.parse(readFileSync(repositoryPath('cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
}

/** A built-SPA stand-in: index.html and one hashed asset, in a fresh temporary directory. */
export async function createSiteFixture(): Promise<{
  readonly dir: string;
  readonly remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'infra-site-'));
  await mkdir(join(dir, 'assets'));
  // As Vite writes web/index.html: the runtime settings' data block empty, filled at deployment.
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html lang="fr"><head><title>Assistant</title>' +
      '<script id="runtime-config" type="application/json"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  await writeFile(join(dir, 'assets', 'index-3f2a1b.js'), 'console.log("app");');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The prod stack over the real handlers (not bundled, see `createTestApp`) and the given site directory. */
export function createTestStack(
  siteDir: string,
  options: { readonly settings?: StageSettings } = {},
): AssistantJuridiqueStack {
  return createTestDeployment(siteDir, options).stack;
}

/**
 * The stacks of a stage as `bin/app.ts` builds them (`buildDeployment`): the stage's stack, and
 * its us-east-1 edge stack when the settings ask for a custom domain or a WAF.
 */
export function createTestDeployment(
  siteDir: string,
  options: { readonly settings?: StageSettings } = {},
): Deployment {
  const settings = options.settings ?? settingsFrom(PROD_CONTEXT);
  return buildDeployment(createTestApp(), settings, { siteDir, account: TEST_ENV.account });
}

/**
 * The prod stage as deployed by default and with a custom domain and the WAF, over one site
 * fixture (`remove` deletes it).
 */
export async function createEdgeDeployments(domainName: string): Promise<{
  readonly byDefault: Deployment;
  readonly withEdge: Deployment;
  readonly remove: () => Promise<void>;
}> {
  const site = await createSiteFixture();
  return {
    byDefault: createTestDeployment(site.dir),
    withEdge: createTestDeployment(site.dir, {
      settings: settingsFrom({ ...PROD_CONTEXT, domainName, waf: 'true' }),
    }),
    remove: site.remove,
  };
}
