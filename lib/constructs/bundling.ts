import { readFileSync } from 'node:fs';

import type { BuildOptions } from 'esbuild';

import {
  bundleDefines,
  type FunctionName,
  type FunctionNeeds,
  NEEDS,
  readsSecrets,
} from '../../functions/needs';
import { repositoryPath } from './repository';

/**
 * esbuild's ESM output still meets CommonJS code in some dependencies that calls `require` for
 * Node built-ins; ESM has no `require`, so the bundle defines one first.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

/**
 * How every function is bundled, in one place, so the budget test and the bench measure what is
 * deployed: ESM, minified, the AWS SDK from the runtime and Powertools from its layer (each would
 * pass the budget bundled), UTF-8, no source map, only the adapters the function declares.
 */
export function bundleSettingsOf(name: FunctionName | undefined) {
  return {
    format: 'esm' as const,
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    // French text as written: esbuild's default escapes each accented letter (4 bytes for 2).
    charset: 'utf8' as const,
    sourcemap: false,
    external: ['@aws-sdk/*', '@aws-lambda-powertools/*'],
    banner: ESM_REQUIRE_BANNER,
    define: name ? bundleDefines(NEEDS[name]) : {},
  };
}

/** The same settings as esbuild options, for the test and the bench that build bundles themselves. */
export function esbuildOptionsOf(name: FunctionName | undefined): BuildOptions {
  const settings = bundleSettingsOf(name);
  return {
    bundle: true,
    platform: 'node',
    format: settings.format,
    target: settings.target,
    mainFields: settings.mainFields,
    minify: settings.minify,
    sourcemap: settings.sourcemap,
    external: settings.external,
    banner: { js: settings.banner },
    define: settings.define,
    charset: settings.charset,
    logLevel: 'error',
  };
}

/** The Powertools packages the functions import, all of one version (`package.json`). */
export const POWERTOOLS_PACKAGES = ['commons', 'logger', 'metrics', 'parameters', 'tracer'] as const;

/** The installed Powertools version: the one the tests ran, so the one the layer must carry. */
export const POWERTOOLS_VERSION: string = (
  JSON.parse(
    readFileSync(repositoryPath('node_modules', '@aws-lambda-powertools', 'logger', 'package.json'), 'utf8'),
  ) as { version: string }
).version;

/**
 * The public SSM parameter (in every commercial region) that AWS publishes for each Powertools
 * release, holding the ARN of that release's layer in the region: CloudFormation resolves it at
 * deployment, so synthesis stays offline and the layer is exactly the installed version's.
 */
export const POWERTOOLS_LAYER_PARAMETER = `/aws/service/powertools/typescript/generic/all/${POWERTOOLS_VERSION}`;

/**
 * Largest minified bundle of a function, of one that declares payments (Stripe's SDK), and of the
 * one that verifies passkeys (`relyingParty`: @simplewebauthn/server and its CBOR and ASN.1
 * parsers, about 400 KB, plus the TOTP and QR code libraries).
 */
export const BUNDLE_BUDGET_BYTES = {
  default: 250 * 1024,
  payments: 600 * 1024,
  passkeys: 600 * 1024,
} as const;

export const budgetOf = (name: FunctionName): number => {
  const needs: FunctionNeeds = NEEDS[name];
  if (needs.payments) return BUNDLE_BUDGET_BYTES.payments;
  if (needs.relyingParty) return BUNDLE_BUDGET_BYTES.passkeys;
  return BUNDLE_BUDGET_BYTES.default;
};

/**
 * What each module left to Lambda (the runtime's AWS SDK, Powertools' layer) is loaded for: the
 * declared need that uses it. A cold start loads every one a bundle imports, so a bundle importing
 * one its function's needs do not use, or one named here by none, carries dead weight.
 */
const LOADED_FOR: readonly (readonly [RegExp, (needs: FunctionNeeds) => boolean])[] = [
  // Every function logs, counts and traces its AWS calls.
  [/^@aws-lambda-powertools\/(logger|metrics|tracer)$/, () => true],
  [/^@aws-sdk\/(client-dynamodb|lib-dynamodb|util-dynamodb)$/, (needs) => needs.table !== undefined],
  [/^@aws-sdk\/client-secrets-manager$|^@aws-lambda-powertools\/parameters\/secrets$/, readsSecrets],
  [/^@aws-sdk\/client-sqs$/, (needs) => needs.webhookQueue !== undefined],
  [/^@aws-lambda-powertools\/batch$/, (needs) => needs.webhookQueue === 'consume'],
  [/^@aws-sdk\/client-sesv2$/, (needs) => needs.mailer === true],
  // Asynchronous invocations: the tick's claimers, the portal-link sender, the export builder.
  [
    /^@aws-sdk\/client-lambda$/,
    (needs) => needs.dueClaimers === true || needs.portalLinks === true || needs.dataExports === 'request',
  ],
  [/^@aws-sdk\/client-s3$/, (needs) => needs.dataExports !== undefined],
  // Only a request signs download links; the builder writes the archives.
  [/^@aws-sdk\/s3-request-presigner$/, (needs) => needs.dataExports === 'request'],
];

/**
 * The modules from Lambda (AWS SDK, Powertools) among a bundle's `externals` that its function's
 * needs do not use: each is named by a rule of `LOADED_FOR` whose need is not declared, or by none.
 */
export function unusedLoads(needs: FunctionNeeds, externals: readonly string[]): string[] {
  return externals.filter(
    (external) =>
      /^@aws-(sdk|lambda-powertools)\//.test(external) &&
      !LOADED_FOR.some(([pattern, usedBy]) => pattern.test(external) && usedBy(needs)),
  );
}
