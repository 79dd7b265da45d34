import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { type FunctionNeeds, handlerPathOf, NEEDS } from '../../functions/needs';
import { ENVIRONMENT } from '../../functions/runtime/environment';
import { type HandlerName, handlerNames, ROUTES, type RouteDefinition, routeKey } from '../../shared/routes';
import type { Throttle } from '../settings';
import { AppFunction } from './app-function';
import { repositoryPath } from './repository';
import { deadLetterAlarm, deadLetterQueue } from './scheduled-parts';

export interface ApiProps {
  /**
   * Throttling before any Lambda runs, applied to each route that has none of its own.
   * @default { rateLimit: 50, burstLimit: 100 }
   */
  readonly throttle?: Throttle;
  /**
   * Routes with a throttle of their own, by route key (`POST /api/verify-license`).
   * @default - none
   */
  readonly routeThrottles?: Readonly<Record<string, Throttle>>;
  /**
   * Routes whose own metrics CloudWatch gets (latency per route), by route key: each costs custom
   * metrics once it is called, so only the routes watched one by one.
   * @default - none
   */
  readonly detailedMetricsRoutes?: readonly string[];
  /**
   * How long the access logs are kept.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly accessLogRetention?: logs.RetentionDays;
  /**
   * What happens to the access logs when the stack is deleted.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * The API's own domain (regional, with its certificate in the stack's region) and the secret
   * first path segment it is mapped under: the execute-api address is then switched off, so the
   * API answers only on that domain and only under that key, which only CloudFront knows.
   * @default - the execute-api address (reachable by anyone; the functions refuse a request
   * without the origin secret, after API Gateway counted it against the route's throttle)
   */
  readonly ownDomain?: {
    readonly domainName: string;
    readonly certificate: acm.ICertificate;
    readonly pathKey: string;
  };
}

/** Fields of the JSON access log (HTTP API `$context` variables); no header, body or token. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
});

/**
 * The HTTP API: one Lambda function per handler of the route table, one route per entry. The
 * stack grants each function what `functions/needs.ts` declares for it. Served to browsers
 * through CloudFront under `/api/*` (same origin, so no CORS), and only through it: every
 * function reads the origin secret CloudFront adds (a need every API function has), and refuses a
 * request without it. With a custom domain the execute-api address is switched off and the API
 * answers only on its own domain under a secret path key (`ownDomain`): a request that did not
 * come through CloudFront is refused by API Gateway before any route's throttle or Lambda.
 */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  /**
   * Where CloudFront reaches the API: its own domain under the secret path key, or the
   * execute-api address; `regionalDomainName` is the target of the own domain's DNS record.
   */
  readonly origin: {
    readonly domainName: string;
    readonly originPath?: string;
    readonly regionalDomainName?: string;
  };
  /** The function of each handler of the route table. */
  readonly functions = new Map<HandlerName, AppFunction>();
  /**
   * Sends the portal links request-portal-link answered for (invoked asynchronously by it), so
   * that its reply never waits on the look-up of an e-mail.
   */
  readonly portalLinkSender: AppFunction;
  /** Sender invocations that threw on every attempt, and the alarm on them. */
  readonly failedPortalLinks: sqs.Queue;
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: ApiProps = {}) {
    super(scope, id);
    const throttle = props.throttle ?? { rateLimit: 50, burstLimit: 100 };
    const routeThrottles = props.routeThrottles ?? {};
    const handlers = handlerNames();
    const detailed = props.detailedMetricsRoutes ?? [];
    validate(throttle, routeThrottles, detailed);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'API de l’assistant juridique (servie sous /api/* par CloudFront)',
      createDefaultStage: false,
      disableExecuteApiEndpoint: props.ownDomain !== undefined,
    });
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    const stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigateway.AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });

    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const name of handlers) {
      const needs: FunctionNeeds = NEEDS[name];
      const fn = new AppFunction(this, name, {
        entry: repositoryPath(handlerPathOf(name)),
        needs: name,
        description: `Appel ${name} de l’API`,
        timeout: Duration.seconds(needs.timeoutSeconds ?? 10),
      });
      this.functions.set(name, fn);
      NagSuppressions.addResourceSuppressions(fn, [
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            'Invoked synchronously by API Gateway: a failure is returned to the caller as an HTTP ' +
            'error, there is no asynchronous event to keep in a dead-letter queue.',
        },
      ]);
      // The live alias, allowed once for the whole API: one permission per function, not per route.
      integrations.set(
        name,
        new HttpLambdaIntegration(`${name}Integration`, fn.live, { scopePermissionToRoute: false }),
      );
    }

    this.failedPortalLinks = deadLetterQueue(this, 'FailedPortalLinks');
    this.portalLinkSender = new AppFunction(this, 'portal-link-sender', {
      entry: repositoryPath(handlerPathOf('portal-link-sender')),
      needs: 'portal-link-sender',
      description: 'Envoie le lien du portail client demandé depuis la page de connexion',
      timeout: Duration.seconds(NEEDS['portal-link-sender'].timeoutSeconds ?? 10),
      asyncFailures: { queue: this.failedPortalLinks, retryAttempts: 2, maxEventAge: Duration.hours(1) },
    });
    this.alarms = [
      deadLetterAlarm(
        this,
        'FailedPortalLinksAlarm',
        this.failedPortalLinks,
        'Des liens du portail client demandés depuis la page de connexion n’ont pas pu être envoyés ' +
          '(Stripe ou SES indisponible) après les nouvelles tentatives.',
      ),
    ];

    const routes: apigwv2.HttpRoute[] = [];
    for (const [routeName, route] of Object.entries(ROUTES as Readonly<Record<string, RouteDefinition>>)) {
      const httpRoute = new apigwv2.HttpRoute(this, routeName, {
        httpApi: this.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration: integrations.get(route.handler)!,
      });
      NagSuppressions.addResourceSuppressions(httpRoute, [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            route.access === 'public'
              ? `${route.method} ${route.path} is declared public in the route table: it is called ` +
                'without a session (signing in, buying a licence, or Stripe posting a webhook whose ' +
                'signature the handler verifies on the raw body first); the handler validates its input.'
              : `${route.method} ${route.path} requires a session: the handler's middleware verifies the ` +
                `session token, re-reads the session and licence and checks the route's role ` +
                `("${route.access}") before any work, as the route table declares.`,
        },
      ]);
      routes.push(httpRoute);
    }

    // Route-level throttles (the L2 stage has only the default one). A route's settings can only
    // be written once the route exists.
    const cfnStage = stage.node.defaultChild as apigwv2.CfnStage;
    cfnStage.routeSettings = Object.fromEntries(
      [...new Set([...Object.keys(routeThrottles), ...detailed])].map((key) => {
        // A route's settings replace the stage's defaults: it restates the default throttle.
        const limit = routeThrottles[key] ?? throttle;
        // A JSON property: CloudFormation's own (Pascal-case) names.
        return [
          key,
          {
            ThrottlingRateLimit: limit.rateLimit,
            ThrottlingBurstLimit: limit.burstLimit,
            ...(detailed.includes(key) ? { DetailedMetricsEnabled: true } : {}),
          },
        ];
      }),
    );
    for (const route of routes) stage.node.addDependency(route);

    if (props.ownDomain) {
      const domain = new apigwv2.DomainName(this, 'OwnDomain', {
        domainName: props.ownDomain.domainName,
        certificate: props.ownDomain.certificate,
        endpointType: apigwv2.EndpointType.REGIONAL,
        securityPolicy: apigwv2.SecurityPolicy.TLS_1_2,
      });
      new apigwv2.ApiMapping(this, 'OwnDomainMapping', {
        api: this.httpApi,
        domainName: domain,
        stage,
        apiMappingKey: props.ownDomain.pathKey,
      });
      this.origin = {
        domainName: props.ownDomain.domainName,
        originPath: `/${props.ownDomain.pathKey}`,
        regionalDomainName: domain.regionalDomainName,
      };
    } else {
      const stack = Stack.of(this);
      this.origin = { domainName: `${this.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}` };
    }
  }

  /** Every function of the API, for the alarms. */
  get allFunctions(): readonly AppFunction[] {
    return [...this.functions.values(), this.portalLinkSender];
  }

  /** Lets a function hand portal-link requests to the sender (`portalLinks`): invoke it only. */
  grantPortalLinks(fn: lambda.Function): void {
    // The live alias: a rollback moves what request-portal-link starts.
    fn.addEnvironment(ENVIRONMENT.portalLinkSenderFunctionName, this.portalLinkSender.live.functionArn);
    this.portalLinkSender.live.grantInvoke(fn);
  }

  /** The API's own endpoint (`https://<id>.execute-api.<region>.amazonaws.com`). */
  get url(): string {
    return this.httpApi.apiEndpoint;
  }
}

function validate(
  throttle: Throttle,
  routeThrottles: Readonly<Record<string, Throttle>>,
  detailed: readonly string[],
): void {
  const problems: string[] = [];
  const positive = (limit: Throttle) => limit.rateLimit > 0 && limit.burstLimit > 0;
  if (!positive(throttle)) problems.push('throttle needs a positive rateLimit and burstLimit');
  const keys = new Set(Object.values(ROUTES as Readonly<Record<string, RouteDefinition>>).map(routeKey));
  for (const [key, limit] of Object.entries(routeThrottles)) {
    if (!keys.has(key)) problems.push(`routeThrottles names no route of the table: "${key}"`);
    if (!positive(limit)) problems.push(`the throttle of ${key} needs a positive rateLimit and burstLimit`);
  }
  for (const key of detailed) {
    if (!keys.has(key)) problems.push(`detailedMetricsRoutes names no route of the table: "${key}"`);
  }
  if (problems.length > 0) throw new Error(`Api: ${problems.join('; ')}`);
}
