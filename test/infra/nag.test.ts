import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { type App, Aspects, type Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createSiteFixture, createTestStack } from './support';

let stack: Stack;
let annotations: Annotations;
let removeSite: () => Promise<void>;

beforeAll(async () => {
  const site = await createSiteFixture();
  removeSite = site.remove;
  // The template alone: the functions are bundled (and so proven to bundle) by billing.test.ts.
  stack = createTestStack(site.dir);
  Aspects.of(stack).add(new AwsSolutionsChecks({ verbose: true }));
  Aspects.of(stack).add(new ServerlessChecks({ verbose: true }));
  annotations = Annotations.fromStack(stack);
});

afterAll(async () => {
  await removeSite();
});

/** One line per finding, so a failure names the rule and the resource. */
const findings = (found: ReturnType<Annotations['findError']>) =>
  found.map((message) => `${message.id}: ${String(message.entry.data).split(':')[0]}`);

describe('cdk-nag', () => {
  for (const pack of ['AwsSolutions', 'Serverless']) {
    it(`finds no unsuppressed ${pack} error`, () => {
      expect(findings(annotations.findError('*', Match.stringLikeRegexp(`^${pack}-.*`)))).toEqual([]);
    });

    it(`finds no unsuppressed ${pack} warning`, () => {
      expect(findings(annotations.findWarning('*', Match.stringLikeRegexp(`^${pack}-.*`)))).toEqual([]);
    });
  }

  it('really ran both packs: their reports list the suppressed findings', async () => {
    const outdir = (stack.node.root as App).outdir;
    const reports = (await readdir(outdir)).filter((file) => file.endsWith('NagReport.csv'));
    const contents = await Promise.all(reports.map((file) => readFile(join(outdir, file), 'utf8')));
    const text = contents.join('\n');
    expect(reports).toHaveLength(2);
    expect(text).toMatch(
      /"AwsSolutions-SMG4","AssistantJuridique-prod\/AppKeys\/SessionSigningKey\/Resource","Suppressed"/,
    );
    expect(text).toMatch(
      /"Serverless-LambdaDLQ","AssistantJuridique-prod\/Api\/verify-license\/Resource","Suppressed"/,
    );
  });
});
