import { describe, expect, it } from 'vitest';

import { NEEDS } from '../../../../functions/needs';
import { unusedLoads } from '../../../../lib/constructs/bundling';

/**
 * The rule the bundles test and `npm run bench -- bundles` judge each bundle's modules from Lambda
 * by: each client is loaded for the need that uses it, whichever adapter that need builds.
 */
describe('unusedLoads', () => {
  it('counts the Lambda client of every asynchronous invocation a function declares', () => {
    // The tick starts its claimers, a portal-link request hands the e-mail to its sender, an
    // export request starts the builder: each invokes a function.
    expect(unusedLoads(NEEDS['scheduled-tick'], ['@aws-sdk/client-lambda'])).toEqual([]);
    expect(unusedLoads(NEEDS['request-portal-link'], ['@aws-sdk/client-lambda'])).toEqual([]);
    expect(
      unusedLoads(NEEDS['data-exports'], [
        '@aws-sdk/client-lambda',
        '@aws-sdk/client-s3',
        '@aws-sdk/s3-request-presigner',
      ]),
    ).toEqual([]);
  });

  it('flags what the export builder does not use: it writes archives, never signs nor invokes', () => {
    expect(
      unusedLoads(NEEDS['data-export-builder'], [
        '@aws-sdk/client-s3',
        '@aws-sdk/client-lambda',
        '@aws-sdk/s3-request-presigner',
      ]),
    ).toEqual(['@aws-sdk/client-lambda', '@aws-sdk/s3-request-presigner']);
  });

  it('flags the table client in a function without a table, and a module no need names', () => {
    expect(
      unusedLoads(NEEDS['create-checkout'], [
        '@aws-lambda-powertools/logger',
        '@aws-lambda-powertools/metrics',
        '@aws-lambda-powertools/tracer',
        '@aws-sdk/client-secrets-manager',
        '@aws-lambda-powertools/parameters/secrets',
        '@aws-sdk/client-dynamodb',
        '@aws-sdk/lib-dynamodb',
        '@aws-sdk/client-sns',
        '@aws-lambda-powertools/idempotency',
        'node:crypto',
      ]),
    ).toEqual([
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/lib-dynamodb',
      '@aws-sdk/client-sns',
      '@aws-lambda-powertools/idempotency',
    ]);
  });

  it('flags the secrets reader in a function that reads no secret', () => {
    expect(
      unusedLoads(NEEDS['undelivered-mail'], [
        '@aws-sdk/client-secrets-manager',
        '@aws-lambda-powertools/parameters/secrets',
      ]),
    ).toEqual(['@aws-sdk/client-secrets-manager', '@aws-lambda-powertools/parameters/secrets']);
  });
});
