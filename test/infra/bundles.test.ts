import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FUNCTION_NAMES, type FunctionName, handlerPathOf, NEEDS } from '../../functions/needs';
import {
  budgetOf,
  esbuildOptionsOf,
  POWERTOOLS_PACKAGES,
  POWERTOOLS_VERSION,
  unusedLoads,
} from '../../lib/constructs/bundling';
import { repositoryPath } from '../../lib/constructs/repository';

/**
 * Every function's bundle, built as `AppFunction` builds it (`lib/constructs/bundling.ts`, the
 * same esbuild settings `cdk synth` uses): within its budget, and holding no adapter its needs
 * do not declare. The one place the infra tests bundle (the stack tests skip bundling).
 */
const bundles = new Map<FunctionName, { readonly bytes: number; readonly metafile: Metafile }>();
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(repositoryPath('node_modules'), '.bundles-test-'));
  for (const name of FUNCTION_NAMES) {
    const result = await build({
      ...esbuildOptionsOf(name),
      entryPoints: [repositoryPath(handlerPathOf(name))],
      outfile: join(outDir, name, 'index.mjs'),
      metafile: true,
      write: false,
    });
    const output = result.outputFiles.find((file) => file.path.endsWith('.mjs'))!;
    bundles.set(name, { bytes: output.contents.byteLength, metafile: result.metafile });
  }
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const inputsOf = (name: FunctionName) => Object.keys(bundles.get(name)!.metafile.inputs);
/** The external modules the bundle imports (the AWS SDK, taken from the Lambda runtime). */
const externalsOf = (name: FunctionName) =>
  Object.values(bundles.get(name)!.metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  );

describe('function bundles', () => {
  it.each(FUNCTION_NAMES)('%s is within its budget (250 KB; 600 KB with Stripe or WebAuthn)', (name) => {
    expect(
      bundles.get(name)!.bytes,
      `${name}: ${(bundles.get(name)!.bytes / 1024).toFixed(1)} KB`,
    ).toBeLessThanOrEqual(budgetOf(name));
  });

  it.each(FUNCTION_NAMES)('%s holds Stripe, SES and SQS only if it declares them', (name) => {
    const needs = NEEDS[name] as (typeof NEEDS)[FunctionName] & Record<string, unknown>;
    const stripe = inputsOf(name).some((input) => input.includes('node_modules/stripe/'));
    expect(stripe, 'Stripe').toBe(needs.payments !== undefined);
    const externals = externalsOf(name);
    expect(externals.includes('@aws-sdk/client-sesv2'), 'SES').toBe(needs.mailer === true);
    expect(externals.includes('@aws-sdk/client-sqs'), 'SQS').toBe(needs.webhookQueue !== undefined);
    // The AWS SDK is never bundled: the runtime's is used.
    expect(inputsOf(name).filter((input) => input.includes('node_modules/@aws-sdk/'))).toEqual([]);
    expect(inputsOf(name).filter((input) => input.includes('node_modules/@smithy/'))).toEqual([]);
  });

  it.each(FUNCTION_NAMES)(
    '%s loads from Lambda only the SDK clients and Powertools its needs use',
    (name) => {
      // A cold start loads every module the bundle imports, used or not.
      expect(unusedLoads(NEEDS[name], externalsOf(name))).toEqual([]);
    },
  );

  it.each(FUNCTION_NAMES)('%s takes Powertools and the X-Ray SDK from the layer, not the bundle', (name) => {
    expect(inputsOf(name).filter((input) => input.includes('node_modules/@aws-lambda-powertools/'))).toEqual(
      [],
    );
    expect(inputsOf(name).filter((input) => input.includes('node_modules/aws-xray-sdk'))).toEqual([]);
    // Every function logs and counts through Powertools: it imports it, from the layer.
    expect(externalsOf(name)).toContain('@aws-lambda-powertools/logger');
  });

  it('has every Powertools package at the one version whose layer the functions get', () => {
    for (const pkg of POWERTOOLS_PACKAGES) {
      const { version } = JSON.parse(
        readFileSync(repositoryPath('node_modules', '@aws-lambda-powertools', pkg, 'package.json'), 'utf8'),
      ) as { version: string };
      expect(version, pkg).toBe(POWERTOOLS_VERSION);
    }
  });

  it('is ESM with module-first main fields and no source map', () => {
    const options = esbuildOptionsOf('me');
    expect(options).toMatchObject({
      format: 'esm',
      mainFields: ['module', 'main'],
      minify: true,
      sourcemap: false,
    });
  });
});
