import { Duration } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { type FunctionNeeds, NEEDS } from '../../functions/needs';
import { type HandlerName, handlerNames, ROUTES } from '../../shared/routes';
import { AppFunction } from './app-function';
import { repositoryPath } from './repository';

export interface ApiProps {
  /**
   * Stage-wide throttling, before any Lambda runs.
   * @default { rateLimit: 50, burstLimit: 100 }
   */
  readonly throttle?: apigwv2.ThrottleSettings;
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
 * through CloudFront under `/api/*` (same origin, so no CORS).
 */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  /** The function of each handler of the route table. */
  readonly functions = new Map<HandlerName, AppFunction>();

  constructor(scope: Construct, id: string, props: ApiProps = {}) {
    super(scope, id);
    const throttle = props.throttle ?? { rateLimit: 50, burstLimit: 100 };
    const handlers = handlerNames();
    validate(throttle);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'API de l’assistant juridique (servie sous /api/* par CloudFront)',
      createDefaultStage: false,
    });
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    new apigwv2.HttpStage(this, 'DefaultStage', {
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
        entry: repositoryPath('functions', `${name}.ts`),
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
      integrations.set(name, new HttpLambdaIntegration(`${name}Integration`, fn));
    }

    for (const [routeName, route] of Object.entries(ROUTES)) {
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
    }
  }

  /** The API's own endpoint (`https://<id>.execute-api.<region>.amazonaws.com`). */
  get url(): string {
    return this.httpApi.apiEndpoint;
  }
}

function validate(throttle: apigwv2.ThrottleSettings): void {
  if (!((throttle.rateLimit ?? 0) > 0 && (throttle.burstLimit ?? 0) > 0)) {
    throw new Error('Api: throttle needs a positive rateLimit and burstLimit');
  }
}
