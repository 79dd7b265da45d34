import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { type FunctionNeeds, handlerPathOf, NEEDS } from '../../functions/needs';
import { type HandlerName, handlerNames, ROUTES, type RouteDefinition, routeKey } from '../../shared/routes';
import type { Throttle } from '../settings';
import { AppFunction } from './app-function';
import { repositoryPath } from './repository';

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
 * The HTTP API: one function per handler of the route table, one route per entry, reached only
 * through CloudFront (every function refuses a request without the origin secret).
 */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  /** The function of each handler of the route table. */
  readonly functions = new Map<HandlerName, AppFunction>();

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
  }

  /** Every function of the API, for the alarms. */
  get allFunctions(): readonly AppFunction[] {
    return [...this.functions.values()];
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
