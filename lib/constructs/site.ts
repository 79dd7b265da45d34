import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { DEFAULT_HOSTING_REGION, PRERENDERED_ROUTES, prerenderedPageOf } from '../../shared/constants';
import { fillPrerenderSlots } from '../../shared/prerender-slots';
import { inlineRuntimeConfig } from '../runtime-config-html';
import { stageSettingsOf } from '../settings';
import { CONTENT_SECURITY_POLICY } from '../site-headers';

export interface SiteProps {
  /** Absolute path of the built SPA (Vite's output); it must contain `index.html`. */
  readonly siteDir: string;
  /**
   * Where the HTTP API served under `/api/*` on the same origin is reached: its host name and, on
   * the API's own domain, the secret path key it is mapped under (`Api.origin`).
   */
  readonly apiOrigin: { readonly domainName: string; readonly originPath?: string };
  /** Headers CloudFront adds to every request it forwards to the API (the origin secret). */
  readonly apiOriginHeaders?: Readonly<Record<string, string>>;
  /**
   * The SPA's runtime settings, written into index.html (read before the first render, with no
   * request) and published as `/config.json`.
   * @default { apiBaseUrl: '' } (the API is on the same origin)
   */
  readonly config?: Readonly<Record<string, unknown>>;
  /**
   * How long CloudFront and S3 access logs are kept (spec §9: technical logs go within 30 days,
   * as /privacy says).
   * @default Duration.days(30)
   */
  readonly accessLogRetention?: Duration;
  /**
   * The site's own domain name and its ACM certificate (in us-east-1, the edge stack's): the
   * distribution answers to it with TLS 1.2 at least, and the site's address becomes it.
   * @default - the distribution's *.cloudfront.net name
   */
  readonly customDomain?: { readonly domainName: string; readonly certificate: acm.ICertificate };
  /**
   * The ARN of a WAF web ACL (scope CLOUDFRONT, in us-east-1) in front of the distribution.
   * @default - none
   */
  readonly webAclArn?: string;
}

/** Vite's folder of content-hashed files, which can be cached for good. */
const HASHED_ASSETS = 'assets/*';
/** Vite's build manifest (`.vite/manifest.json`), read by the budget check, not by browsers. */
const BUILD_METADATA = '.vite/*';

/**
 * Extension-less paths are SPA routes (or pre-rendered pages); unlike CloudFront error responses,
 * this leaves `/api/*` errors and a missing `/assets/x.js` real errors.
 */
const SPA_FALLBACK = `var PRERENDERED = ${JSON.stringify(
  Object.fromEntries(PRERENDERED_ROUTES.map((route) => [route, `/${prerenderedPageOf(route)}`])),
)};
function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    var page = PRERENDERED[request.uri];
    if (page) request.uri = page;
    else request.uri = '/index.html';
  }
  return request;
}`;

/**
 * The site: a private bucket behind CloudFront with the strict CSP, and `/api/*` forwarded
 * uncached to the HTTP API on the same origin (no CORS); docs/web.md and docs/architecture.md say
 * how assets, the shell and compression are deployed and why.
 */
export class Site extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  private readonly domainName?: string;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    validate(props);
    const retention = props.accessLogRetention ?? Duration.days(30);
    this.domainName = props.customDomain?.domainName;

    // Kept with the stage's data in prod; a dev stage empties and deletes them when destroyed.
    const removalPolicy = stageSettingsOf(this)?.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
    const emptiedWithStack = removalPolicy === RemovalPolicy.DESTROY;
    const logBucket = new s3.Bucket(this, 'AccessLogs', {
      removalPolicy,
      autoDeleteObjects: emptiedWithStack,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with an ACL grant, so ACLs must stay enabled.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: retention }],
    });
    NagSuppressions.addResourceSuppressions(logBucket, [
      {
        id: 'AwsSolutions-S1',
        reason: 'This is the access-log bucket itself; logging its own access would log into itself.',
      },
    ]);

    this.accessLogs = logBucket;

    this.bucket = new s3.Bucket(this, 'Bucket', {
      removalPolicy,
      autoDeleteObjects: emptiedWithStack,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: 's3/',
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'En-têtes de sécurité du site et de l’API (CSP stricte)',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    const spaFallback = new cloudfront.Function(this, 'SpaFallback', {
      comment: 'Routes sans extension -> /index.html (SPA)',
      code: cloudfront.FunctionCode.fromInline(SPA_FALLBACK),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const apiCachePolicy = new cloudfront.CachePolicy(this, 'ApiCompression', {
      comment: 'API : réponses compressées (gzip, brotli), jamais gardées (no-store)',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('Authorization'),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Assistant juridique : SPA et /api/*',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // Europe and North America: the customers are French law firms.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket,
      logFilePrefix: 'cloudfront/',
      // A custom domain brings its own certificate, so its TLS policy can be chosen: TLS 1.2 at
      // least (the default certificate's policy is CloudFront's and allows TLS 1.0).
      ...(props.customDomain
        ? {
            domainNames: [props.customDomain.domainName],
            certificate: props.customDomain.certificate,
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        compress: true,
        functionAssociations: [
          { function: spaFallback, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new origins.HttpOrigin(props.apiOrigin.domainName, {
            ...(props.apiOrigin.originPath ? { originPath: props.apiOrigin.originPath } : {}),
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
            customHeaders: props.apiOriginHeaders ? { ...props.apiOriginHeaders } : undefined,
          }),
          // A redirect would turn a POST into a GET: refuse plain HTTP instead.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          // Compressed, not cached: see the class comment.
          cachePolicy: apiCachePolicy,
          compress: true,
          // Every viewer header but Host (API Gateway answers to its own host name), plus the
          // CloudFront headers, among them CloudFront-Viewer-Address, the client address that
          // sign-in throttling counts by.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
        },
      },
    });
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'No geo restriction: lawyers travel and sign in from abroad; access is controlled by ' +
          'licence keys and sessions, not by country.',
      },
    ]);
    if (!props.webAclArn) {
      NagSuppressions.addResourceSuppressions(this.distribution, [
        {
          id: 'AwsSolutions-CFR2',
          reason:
            'WAF off (the default, `-c waf=true` turns it on): its monthly cost is out of proportion ' +
            'for a few firms; the API is throttled per route and repeated wrong licence keys are ' +
            'slowed then refused per client address by the application.',
        },
      ]);
    }
    if (!props.customDomain) {
      NagSuppressions.addResourceSuppressions(this.distribution, [
        {
          id: 'AwsSolutions-CFR4',
          reason:
            'No custom domain (the default, `-c domainName=` sets one): the distribution uses its ' +
            '*.cloudfront.net certificate, whose TLS policy CloudFront fixes; with a custom domain ' +
            'the minimum is TLSv1.2_2021.',
        },
      ]);
    }

    this.deploy(props);
  }

  /**
   * The site and, under `/api`, the API: `https://<custom domain>` if the stage has one, else
   * `https://<distribution>.cloudfront.net`.
   */
  get url(): string {
    return `https://${this.domainName ?? this.distribution.distributionDomainName}`;
  }

  private deploy(props: SiteProps): void {
    // One role and one log group for the deployment function CDK provides, so it gets no
    // managed policy and no log group of unlimited retention.
    const stage = stageSettingsOf(this);
    const deploymentLogs = new logs.LogGroup(this, 'DeploymentLogs', {
      retention: stage?.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: stage?.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    const deploymentRole = new iam.Role(this, 'DeploymentRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Rôle de la copie du site dans son bucket (BucketDeployment)',
    });
    deploymentLogs.grantWrite(deploymentRole);
    const common = {
      destinationBucket: this.bucket,
      role: deploymentRole,
      logGroup: deploymentLogs,
      memoryLimit: 512,
      // The reply listing every object key can exceed CloudFormation's 4 KB response limit.
      outputObjectKeys: false,
    };
    const site = s3deploy.Source.asset(props.siteDir);
    const config = props.config ?? { apiBaseUrl: '' };
    // Written at synthesis when the settings are known then; deploy-time values (a token) are
    // filled in by the deployment function.
    const configJson = JSON.stringify(config);
    const withConfig = (page: string) =>
      s3deploy.Source.data(
        page,
        fillPrerenderSlots(
          inlineRuntimeConfig(
            readFileSync(join(props.siteDir, page), 'utf8'),
            Token.isUnresolved(configJson) ? Stack.of(this).toJsonString(config) : configJson,
          ),
          config,
          DEFAULT_HOSTING_REGION,
        ),
      );
    // index.html and the pre-rendered pages the build wrote, each with the settings.
    const pagesWithConfig = [
      'index.html',
      ...PRERENDERED_ROUTES.map(prerenderedPageOf).filter((page) => existsSync(join(props.siteDir, page))),
    ].map(withConfig);

    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      ...common,
      sources: [site],
      exclude: ['*'],
      include: [HASHED_ASSETS],
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
    });
    const shell = new s3deploy.BucketDeployment(this, 'DeployShell', {
      ...common,
      // Extracted in order: the pages with their settings replace the built ones.
      sources: [site, s3deploy.Source.jsonData('config.json', config), ...pagesWithConfig],
      // Pruning removes files of earlier releases, except the hashed assets (see above).
      exclude: [HASHED_ASSETS, BUILD_METADATA],
      cacheControl: [s3deploy.CacheControl.noCache()],
    });
    shell.node.addDependency(assets);

    NagSuppressions.addResourceSuppressions(
      deploymentRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'CDK BucketDeployment grants: it copies every object of its asset to the site bucket ' +
            '(s3:GetObject*, s3:List*, s3:DeleteObject*... on <bucket>/*); object keys are not ' +
            'known in advance.',
          appliesTo: [{ regex: '/^Action::s3:.*\\*$/' }, { regex: '/^Resource::.*\\/\\*$/' }],
        },
      ],
      true,
    );
    const deploymentFunctions = Stack.of(this)
      .node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))
      .map((child) => child.node.path);
    NagSuppressions.addResourceSuppressionsByPath(Stack.of(this), deploymentFunctions, [
      {
        id: 'AwsSolutions-L1',
        reason: 'CDK BucketDeployment function: its Python runtime is chosen by aws-cdk-lib.',
      },
      { id: 'Serverless-LambdaLatestVersion', reason: 'Runtime chosen by aws-cdk-lib, see AwsSolutions-L1.' },
      {
        id: 'Serverless-LambdaDLQ',
        reason: 'CDK BucketDeployment custom resource: CloudFormation fails the deployment on error.',
      },
      {
        id: 'Serverless-LambdaTracing',
        reason: 'CDK BucketDeployment function runs only during deployments; tracing it adds nothing.',
      },
    ]);
  }
}

function validate(props: SiteProps): void {
  const { siteDir } = props;
  if (!isAbsolute(siteDir) || !existsSync(siteDir) || !statSync(siteDir).isDirectory()) {
    throw new Error(
      `Site: the SPA directory ${siteDir} does not exist or is not an absolute directory path; ` +
        'build the SPA first (npm run build:web) or pass -c siteDir=<dir>.',
    );
  }
  if (!existsSync(join(siteDir, 'index.html'))) {
    throw new Error(
      `Site: ${siteDir} has no index.html; build the SPA first (npm run build:web) or pass -c siteDir=<dir>.`,
    );
  }
}
