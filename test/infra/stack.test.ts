import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { CfnAlias, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { indexInput, TABLE_DEFINITION } from '../../functions/data/table/table-definition';
import { NEEDS } from '../../functions/needs';
import type { AppFunction } from '../../lib/constructs/app-function';
import { CONTENT_SECURITY_POLICY } from '../../lib/site-headers';
import { handlerNames, ROUTES, type RouteDefinition, routeKey } from '../../shared/routes';
import { createSiteFixture, createTestStack, TEST_ENV } from './support';

type Resource = {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
  readonly DependsOn?: string[];
};
type Statement = { readonly Action: string | string[]; readonly Resource: unknown };

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

let stack: Stack;
let template: Template;
let resources: Record<string, Resource>;
let removeSite: () => Promise<void>;

beforeAll(async () => {
  const site = await createSiteFixture();
  removeSite = site.remove;
  // The template alone: the functions are bundled (and so proven to bundle) by billing.test.ts.
  stack = createTestStack(site.dir);
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

afterAll(async () => {
  await removeSite();
});

function propertiesOf(logicalId: string): Record<string, unknown> {
  const resource = resources[logicalId];
  if (!resource) throw new Error(`No resource ${logicalId} in the template`);
  return resource.Properties;
}

/** The logical id of the function of a handler of the route table. */
function functionIdOf(handler: string): string {
  const fn = stack.node.findChild('Api').node.findChild(handler);
  return stack.getLogicalId(fn.node.defaultChild as CfnFunction);
}

function allStatements(): Statement[] {
  return Object.values(resources).flatMap((r) => {
    if (r.Type === 'AWS::IAM::Policy')
      return (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    if (r.Type === 'AWS::IAM::Role') {
      const policies = (r.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[];
      return policies.flatMap((p) => p.PolicyDocument.Statement);
    }
    return [];
  });
}

const httpApiId = () =>
  stack.getLogicalId(stack.node.findChild('Api').node.findChild('HttpApi').node.defaultChild as CfnApi);

const keySecretId = (id: string) =>
  stack.getLogicalId(stack.node.findChild('AppKeys').node.findChild(id).node.defaultChild as CfnSecret);

const apiCachePolicyId = () =>
  stack.getLogicalId(
    stack.node.findChild('Site').node.findChild('ApiCompression').node
      .defaultChild as cloudfront.CfnCachePolicy,
  );

const originVerifySecretId = () =>
  stack.getLogicalId(
    stack.node.findChild('OriginVerify').node.findChild('Secret').node.defaultChild as CfnSecret,
  );

describe('data table', () => {
  it('is keyed, indexed and expired as TABLE_DEFINITION says', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map(indexInput),
      TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: true },
    });
  });

  it('is on demand, with point-in-time recovery and deletion protection, and retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      // Kept on every operation but the rollback of the create that made it.
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
    });
  });
});

describe('functions', () => {
  it('has one function per handler of the route table, on nodejs22.x and arm64, traced', () => {
    for (const name of handlerNames()) {
      expect(propertiesOf(functionIdOf(name))).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
    }
    // The handlers, the app-keys generator, the first-create cleanup, CDK's BucketDeployment
    // function, the webhook worker, the scheduler tick, its claimer, the retention purge and the
    // recorder of undelivered e-mails, the portal-link sender and the exports' builder.
    template.resourceCountIs('AWS::Lambda::Function', handlerNames().length + 10);
  });

  it('keeps every function log for the prod stage’s 30 days (spec §9) in its own log group', () => {
    for (const name of handlerNames()) {
      const logGroup = (propertiesOf(functionIdOf(name)).LoggingConfig as { LogGroup: { Ref: string } })
        .LogGroup.Ref;
      expect(propertiesOf(logGroup)).toMatchObject({ RetentionInDays: 30 });
    }
  });
});

describe('permissions', () => {
  it('never grants dynamodb:Scan nor any wildcard action', () => {
    const actions = allStatements().flatMap((statement) => asArray(statement.Action));
    expect(actions).toContain('dynamodb:Query');
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions.filter((action) => action === '*' || action.endsWith(':*'))).toEqual([]);
  });

  it('has CloudFront send the origin secret to the API through a dynamic reference, never in clear', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!;
    const origins = (distribution.Properties.DistributionConfig.Origins ?? []) as {
      OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
    }[];
    const headers = origins.flatMap((origin) => origin.OriginCustomHeaders ?? []);
    expect(headers.map((header) => header.HeaderName)).toEqual(['x-origin-verify']);
    expect(JSON.stringify(headers[0]?.HeaderValue)).toContain('{{resolve:secretsmanager:');
    expect(JSON.stringify(headers[0]?.HeaderValue)).toContain(originVerifySecretId());
  });

  // What each function is granted, against its declaration: test/infra/needs.test.ts.
});

describe('server keys', () => {
  it('are three retained secrets filled by Custom::AppKeys, and no combined one on a fresh stage', () => {
    const keySecrets = Object.entries(template.findResources('AWS::SecretsManager::Secret')).filter(([id]) =>
      id.startsWith('AppKeys'),
    );
    expect(keySecrets.map(([, secret]) => secret.DeletionPolicy)).toEqual(
      Array(3).fill('RetainExceptOnCreate'),
    );
    template.resourceCountIs('Custom::AppKeys', 1);
    const [keys] = Object.values(template.findResources('Custom::AppKeys'));
    expect(keys?.Properties).not.toHaveProperty('LegacySecretId');
  });

  it('deploys the functions that read a key after the keys are written', () => {
    const keys = Object.keys(template.findResources('Custom::AppKeys'))[0]!;
    // Not the public calls that read none (create-checkout, a workflow's completion report).
    for (const name of handlerNames().filter((handler) => (NEEDS[handler].keys ?? []).length > 0)) {
      expect(template.toJSON().Resources[functionIdOf(name)].DependsOn, name).toContain(keys);
    }
  });
});

describe('HTTP API', () => {
  const routes = Object.values(ROUTES as Record<string, RouteDefinition>);

  it('has one route per entry of the route table, with its route key', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
    for (const route of routes) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: routeKey(route) });
    }
  });

  it('serves the Stripe webhook without session authorisation', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'POST /api/stripe-webhook',
      AuthorizationType: 'NONE',
      AuthorizerId: Match.absent(),
    });
  });

  it("sends each route to its handler's function", () => {
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    for (const route of routes) {
      const [, [, integrationRef]] = Object.values(
        template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey(route) } }),
      )[0]!.Properties.Target['Fn::Join'] as [string, [string, { Ref: string }]];
      // The function's live alias, which a rollback moves back.
      expect(integrations[integrationRef.Ref]?.Properties.IntegrationUri, routeKey(route)).toEqual({
        Ref: stack.getLogicalId(
          (stack.node.findChild('Api').node.findChild(route.handler) as AppFunction).live.node
            .defaultChild as CfnAlias,
        ),
      });
    }
  });

  it('throttles the default stage and writes JSON access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 100, ThrottlingRateLimit: 50 },
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.serializedJson(Match.objectLike({ requestId: '$context.requestId' })),
      },
    });
  });
});

// The publisher's legal details the site's /privacy shows, published with the runtime settings.
const PUBLISHED_LEGAL_DETAILS = {
  name: expect.any(String),
  legalForm: expect.any(String),
  registration: expect.any(String),
  postalAddress: expect.any(String),
  contactEmail: expect.any(String),
  publicationDirector: expect.any(String),
};

describe('site', () => {
  it('serves /api/* from the HTTP API, compressed and uncached, every method, every viewer header but Host', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CacheBehaviors: [
          Match.objectLike({
            PathPattern: '/api/*',
            CachePolicyId: { Ref: apiCachePolicyId() },
            Compress: true,
            OriginRequestPolicyId:
              cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
            AllowedMethods: Match.arrayWith(['GET', 'PUT', 'PATCH', 'POST', 'DELETE']),
            ViewerProtocolPolicy: 'https-only',
          }),
        ],
        Origins: Match.arrayWith([
          Match.objectLike({
            DomainName: {
              'Fn::Join': [
                '',
                [{ Ref: httpApiId() }, `.execute-api.${TEST_ENV.region}.`, { Ref: 'AWS::URLSuffix' }],
              ],
            },
            CustomOriginConfig: Match.objectLike({ OriginProtocolPolicy: 'https-only' }),
          }),
        ]),
      }),
    });
  });

  it('compresses /api/* replies under a policy that caches nothing and keys on the session', () => {
    // CloudFront compresses only when the cache policy accepts gzip/brotli, which it refuses for a
    // policy whose TTLs are all 0 (managed CachingDisabled): hence default and minimum 0 (every
    // API reply says no-store) and the session and query string in the key all the same.
    const config = propertiesOf(apiCachePolicyId()).CachePolicyConfig as Record<string, unknown>;
    expect(config).toMatchObject({
      MinTTL: 0,
      DefaultTTL: 0,
      MaxTTL: 1,
      ParametersInCacheKeyAndForwardedToOrigin: {
        EnableAcceptEncodingGzip: true,
        EnableAcceptEncodingBrotli: true,
        HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Authorization'] },
        QueryStringsConfig: { QueryStringBehavior: 'all' },
        CookiesConfig: { CookieBehavior: 'none' },
      },
    });
    expect(config.MaxTTL).toBeGreaterThan(0);
  });

  it('falls back to index.html with a viewer-request function, not with error responses', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        CustomErrorResponses: Match.absent(),
        DefaultCacheBehavior: Match.objectLike({
          FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: Match.anyValue() }],
        }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: Match.stringLikeRegexp("request\\.uri = '/index\\.html'"),
    });
    // /login and the public pages are answered with the pages the build pre-rendered for them.
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: Match.stringLikeRegexp(
        'var PRERENDERED = \\{"/login":"/login\\.html","/":"/landing\\.html","/discover":"/discover\\.html","/privacy":"/privacy\\.html","/payment-success":"/payment-success\\.html"\\}',
      ),
    });
  });

  it('sends the strict Content-Security-Policy and the other security headers', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: CONTENT_SECURITY_POLICY, Override: true },
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31_536_000 }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
        },
      }),
    });
  });

  it('blocks public access to every bucket and refuses plain HTTP', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    // The site, its access logs, and the firms' exports.
    expect(Object.keys(buckets)).toHaveLength(3);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    template.resourcePropertiesCountIs(
      'AWS::S3::BucketPolicy',
      {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      },
      3,
    );
  });

  it('deploys hashed assets for a year, unpruned, then the shell and /config.json uncached, not the build manifest', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: ['assets/*'],
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Exclude: ['assets/*', '.vite/*'],
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
  });

  it("publishes /config.json with the API on the same origin and the stack's region (for /privacy)", async () => {
    const outdir = (stack.node.root as App).outdir;
    const assets = (await readdir(outdir)).filter((entry) => entry.startsWith('asset.'));
    const configs = await Promise.all(
      assets.map((asset) => readFile(join(outdir, asset, 'config.json'), 'utf8').catch(() => undefined)),
    );
    expect(configs.filter((config) => config !== undefined).map((config) => JSON.parse(config!))).toEqual([
      // The region is the deployment's, filled in at deploy time (a CloudFormation reference here).
      { apiBaseUrl: '', hostingRegion: expect.any(String), legal: PUBLISHED_LEGAL_DETAILS },
    ]);
  });

  it('writes the runtime settings into index.html, deployed after the built site so it replaces it', async () => {
    const outdir = (stack.node.root as App).outdir;
    const assets = (await readdir(outdir)).filter((entry) => entry.startsWith('asset.'));
    const pages = await Promise.all(
      assets.map(async (asset) => ({
        hash: asset.slice('asset.'.length),
        page: await readFile(join(outdir, asset, 'index.html'), 'utf8').catch(() => ''),
      })),
    );
    const written = pages.filter(({ page }) => page.includes('"apiBaseUrl"'));
    expect(written).toHaveLength(1);
    const data = /<script id="runtime-config" type="application\/json">([^<]*)<\/script>/.exec(
      written[0]!.page,
    );
    // The region is the deployment's, filled in at deploy time (a deploy-time marker here).
    expect(JSON.parse(data?.[1] ?? '')).toEqual({
      apiBaseUrl: '',
      hostingRegion: expect.any(String),
      legal: PUBLISHED_LEGAL_DETAILS,
    });
    // The shell deployment extracts its sources in order: the page with its settings comes last.
    const shell = Object.values(resources).find(
      (resource) =>
        resource.Type === 'Custom::CDKBucketDeployment' &&
        JSON.stringify(resource.Properties.Exclude) === JSON.stringify(['assets/*', '.vite/*']),
    );
    const keys = shell?.Properties.SourceObjectKeys as unknown[];
    expect(keys).toHaveLength(3);
    expect(JSON.stringify(keys.at(-1))).toContain(written[0]!.hash);
  });
});

describe('outputs', () => {
  it('gives the site URL, the table name, the key secrets the admin-licence command reads, the alarm topic and the dashboard', () => {
    for (const output of ['SiteUrl', 'TableName', 'AlarmTopicArn', 'DashboardName']) {
      template.hasOutput(output, { Value: Match.anyValue() });
    }
    template.hasOutput('LicenseHashKeySecretArn', { Value: { Ref: keySecretId('LicenseHashKey') } });
    template.hasOutput('LicenseEncryptionKeySecretArn', {
      Value: { Ref: keySecretId('LicenseEncryptionKey') },
    });
  });

  it('no longer advertises the execute-api address: only CloudFront reaches the API', () => {
    expect(Object.keys(template.toJSON().Outputs)).not.toContain('ApiUrl');
  });
});
