import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { App } from 'aws-cdk-lib';

import { repositoryPath } from '../../lib/constructs/repository';
import { AssistantJuridiqueStack } from '../../lib/stack';

/** The account and region the test stack is synthesized for, as `cdk deploy` would. */
export const TEST_ENV = { account: '123456789012', region: 'eu-west-3' } as const;

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

/** The production stack over the real handlers (not bundled, see `createTestApp`) and the given site directory. */
export function createTestStack(siteDir: string): AssistantJuridiqueStack {
  return new AssistantJuridiqueStack(createTestApp(), 'AssistantJuridique', { siteDir, env: TEST_ENV });
}
