import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { App, type Stack } from 'aws-cdk-lib';
import { z } from 'zod';

import { repositoryPath } from './constructs/repository';
import { buildDeployment, type Deployment } from './deployment';
import type { BenchCostUnits, SynthesizedStack } from './operations-figures';
import { stageSettings } from './settings';

/** The context `docs/operations.md`'s figures are computed for: prod, AWS's default Lambda quota. */
export const DOCUMENTED_CONTEXT = {
  stage: 'prod',
  mailFrom: 'licences@cabinet.example',
  alarmEmail: 'ops@cabinet.example',
  companyName: 'Lexflow',
  companyLegalForm: 'SAS au capital de 10 000 €',
  companyRegistration: 'RCS Paris 912 345 678',
  companyAddress: '12 rue de la Paix, 75002 Paris, France',
  companyEmail: 'contact@cabinet.example',
  publicationDirector: 'Claire Martin, présidente',
} as const;

/** The templates of a deployment, as plain resources. */
export function synthesizedStacksOf(deployment: Deployment): SynthesizedStack[] {
  const assembly = (deployment.stack.node.root as App).synth();
  return [deployment.recovery, deployment.edge, deployment.stack, deployment.edgeAlarms]
    .filter((stack): stack is NonNullable<typeof stack> => stack !== undefined)
    .map((stack: Stack) => ({
      stackName: stack.stackName,
      region: stack.region,
      resources: (
        assembly.getStackByName(stack.stackName).template as { Resources: SynthesizedStack['resources'] }
      ).Resources,
    }));
}

/**
 * The stage's stacks synthesized without bundling (the figures need templates, not bundles),
 * against a stand-in of the built site, with the CDK context of `cdk.json`.
 */
export async function synthesizeOffline(
  context: Readonly<Record<string, string>>,
): Promise<SynthesizedStack[]> {
  const siteDir = await mkdtemp(join(tmpdir(), 'site-'));
  try {
    await writeFile(
      join(siteDir, 'index.html'),
      '<!doctype html><html><head><script id="runtime-config" type="application/json"></script></head><body></body></html>',
    );
    const cdkContext = (JSON.parse(readFileSync(repositoryPath('cdk.json'), 'utf8')) as { context: object })
      .context;
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    const deployment = buildDeployment(
      app,
      stageSettings((key) => context[key]),
      { siteDir, account: '123456789012' },
    );
    return synthesizedStacksOf(deployment);
  } finally {
    await rm(siteDir, { recursive: true, force: true });
  }
}

const units = z.object({
  lambdaGbSeconds: z.number().nonnegative().nullable(),
  lambdaRequests: z.number().nonnegative().nullable(),
  dynamoDbWriteUnits: z.number().nonnegative().nullable(),
  dynamoDbReadUnits: z.number().nonnegative().nullable(),
  sqsRequests: z.number().nonnegative().nullable(),
  logBytes: z.number().nonnegative().nullable(),
});

/** The bench's measured units (`bench/cost-units.json`), checked. */
export const readBenchCostUnits = (): BenchCostUnits =>
  z
    .object({
      perIdleMinute: units,
      perRun: units,
      metricsPublishedAtRest: z.number().int().nonnegative().nullable(),
    })
    .parse(JSON.parse(readFileSync(repositoryPath('bench', 'cost-units.json'), 'utf8')));
