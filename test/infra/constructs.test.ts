import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';

import { TABLE_DEFINITION } from '../../functions/data/table/table-definition';
import { AppFunction } from '../../lib/constructs/app-function';
import { DataTable } from '../../lib/constructs/data-table';
import { Site } from '../../lib/constructs/site';
import { createSiteFixture, createTestApp } from './support';

const plainFunction = (stack: Stack, id: string) =>
  new lambda.Function(stack, id, {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => {};'),
  });

describe('DataTable.bindTable', () => {
  const stack = new Stack(createTestApp(), 'TableStack');
  const table = new DataTable(stack, 'Data');
  const allIndexes = TABLE_DEFINITION.globalSecondaryIndexes.map((index) => index.indexName);
  table.bindTable(plainFunction(stack, 'Reader'), 'read', allIndexes);
  table.bindTable(plainFunction(stack, 'Writer'), 'readWrite', []);
  const template = Template.fromStack(stack);
  const tableArn = { 'Fn::GetAtt': [Match.stringLikeRegexp('^DataTable'), 'Arn'] };

  it('names the table to the function in TABLE_NAME', () => {
    template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      { Environment: { Variables: { TABLE_NAME: { Ref: Match.stringLikeRegexp('^DataTable') } } } },
      2,
    );
  });

  it('grants a reader GetItem, BatchGetItem and Query on the table, and Query on each index it queries', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^ReaderServiceRole') }],
      PolicyDocument: {
        Statement: [
          {
            Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'],
            Effect: 'Allow',
            Resource: tableArn,
          },
          {
            Action: 'dynamodb:Query',
            Effect: 'Allow',
            // Each declared index by name, in the order minimizePolicies sorts them.
            Resource: TABLE_DEFINITION.globalSecondaryIndexes
              .map((index) => index.indexName)
              .sort()
              .map((name) => ({ 'Fn::Join': ['', [tableArn, `/index/${name}`]] })),
          },
        ],
      },
    });
  });

  it('grants a writer the item writes and condition checks that transactions need, on the table only', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('^WriterServiceRole') }],
      PolicyDocument: {
        // No index declared: no Query on any index.
        Statement: Match.exact([
          {
            Action: [
              'dynamodb:BatchGetItem',
              'dynamodb:BatchWriteItem',
              'dynamodb:ConditionCheckItem',
              'dynamodb:DeleteItem',
              'dynamodb:GetItem',
              'dynamodb:PutItem',
              'dynamodb:Query',
              'dynamodb:UpdateItem',
            ],
            Effect: 'Allow',
            Resource: tableArn,
          },
        ]),
      },
    });
  });
});

describe('Site', () => {
  it('refuses a site directory without index.html, saying how to build it', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'infra-empty-site-'));
    try {
      const stack = new Stack(createTestApp(), 'SiteStack');
      expect(
        () =>
          new Site(stack, 'Site', {
            siteDir: empty,
            apiOrigin: { domainName: 'abc.execute-api.eu-west-3.amazonaws.com' },
          }),
      ).toThrow(/has no index\.html; build the SPA first \(npm run build:web\)/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('Site with a pre-rendered /login', () => {
  it('deploys login.html with the runtime settings written in, as index.html', async () => {
    const { dir, remove } = await createSiteFixture();
    try {
      await writeFile(
        join(dir, 'login.html'),
        '<!doctype html><html lang="fr"><head><script id="runtime-config" type="application/json"></script>' +
          '</head><body><div id="root"><main>Connexion</main></div></body></html>',
      );
      const app = createTestApp();
      const stack = new Stack(app, 'SiteStack');
      new Site(stack, 'Site', {
        siteDir: dir,
        apiOrigin: { domainName: 'abc.execute-api.eu-west-3.amazonaws.com' },
        config: { apiBaseUrl: '' },
      });
      const outdir = app.synth().directory;

      const assets = (await readdir(outdir)).filter((entry) => entry.startsWith('asset.'));
      const pages = await Promise.all(
        assets.map((asset) => readFile(join(outdir, asset, 'login.html'), 'utf8').catch(() => '')),
      );
      const written = pages.filter(
        (page) => page.includes('<main>Connexion</main>') && page.includes('"apiBaseUrl"'),
      );
      expect(written).toHaveLength(1);
    } finally {
      await remove();
    }
  });
});

describe('AppFunction', () => {
  it('refuses an entry that does not exist, naming the function', () => {
    const stack = new Stack(createTestApp(), 'FunctionStack');
    expect(
      () => new AppFunction(stack, 'Missing', { entry: '/nowhere/missing.ts', description: 'absent' }),
    ).toThrow('AppFunction Missing: entry /nowhere/missing.ts does not exist');
  });

  it('refuses a timeout beyond what Lambda allows', () => {
    const stack = new Stack(createTestApp(), 'TimeoutStack');
    expect(
      () =>
        new AppFunction(stack, 'Slow', {
          entry: join(import.meta.dirname, 'constructs.test.ts'),
          description: 'slow',
          timeout: Duration.seconds(901),
        }),
    ).toThrow('timeout must be 1 to 900 seconds (got 901)');
  });
});
