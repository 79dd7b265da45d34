import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { createTable } from '../../../functions/data/table/table';
import { METRIC, RecordedMetrics } from '../../../functions/domain/core/metrics';
import { reportLinkOf } from '../../../functions/domain/scheduling/report-links';
import { API_HANDLERS } from '../../../functions/handlers/index';
import type { ApiResult } from '../../../functions/http/api-event';
import { NEEDS } from '../../../functions/needs';
import { LOCAL_AWS } from '../../../lib/local/dynamodb-local';
import { freePort } from '../../../lib/local/free-port';
import { signWebhookPayload } from '../../../lib/local/stripe/stand-in';
import { MESSAGES } from '../../../shared/messages';
import { ROUTES, type RouteName, routePath } from '../../../shared/routes';
import { apiEvent, createTestApp, disposeTestApp, MemoryMailer, type TestApp } from '../../support/app';
import { issueAndSignIn } from '../../support/directory';
import { PUBLIC_URL } from '../../support/payments';
import { type StandInHarness, startHarness } from '../../support/stripe';

/** A fake DynamoDB endpoint answering every request as `answer` says (or never). */
async function fakeDynamoDb(answer: ((respond: (status: number, body: object) => void) => void) | null) {
  const server: Server = createServer((request, response) => {
    request.resume();
    if (!answer) return;
    answer((status, body) => {
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The body a public route needs to get as far as the table (protected routes stop at the session). */
const PUBLIC_BODIES: Partial<Record<RouteName, unknown>> = {
  verifyLicense: { licenseKey: 'NOTARY-ABCDEFGH' },
  requestPortalLink: { email: 'cabinet@example.com' },
  submitCompletionReport: { status: 'success', summary: '3 e-mails classés' },
};

describe('the store failing is an answer', () => {
  let app: TestApp;
  let stripe: StandInHarness;
  let token: string;

  beforeAll(async () => {
    stripe = await startHarness();
    app = {
      ...(await createTestApp(inject('dynamoEndpoint'))),
      billing: {
        payments: async () => stripe.payments,
        mailer: new MemoryMailer(),
        publicUrl: () => PUBLIC_URL,
      },
    };
    // A session opened while the store answered: its token verifies, its record cannot be read.
    ({ token } = await issueAndSignIn(app, 'admin'));
  });

  afterAll(async () => {
    await stripe.stop();
    await disposeTestApp(app);
  });

  /** The app with its table client pointed at another endpoint, and metrics of its own. */
  const appOn = (endpoint: string) => ({
    ...app,
    // The time-outs of AWS, not the emulator's longer ones.
    table: createTable(app.table.name, {
      ...LOCAL_AWS,
      endpoint,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000, throwOnRequestTimeout: true },
    }),
    metrics: new RecordedMetrics(),
  });

  /** A completion report's link, signed as the worker signs it: the report then reads the table. */
  const reportTokenOf = (deps: ReturnType<typeof appOn>) => {
    const workflowId = '5f0c6d3e-8d5b-4b7e-9a51-0d7f2b9c1a11';
    const { url } = reportLinkOf(
      {
        workflowId,
        runId: `${workflowId}:manual:store-down`,
        trigger: 'manual',
        startedAt: deps.clock.now().toISOString(),
      },
      { webhookSecret: deps.webhookSecret, origin: deps.publicApiUrl() },
    );
    return url.slice(url.lastIndexOf('/') + 1);
  };

  /** Calls a route by name on the given dependencies, as API Gateway routes it. */
  const call = async (deps: ReturnType<typeof appOn>, name: RouteName): Promise<ApiResult> => {
    const route = ROUTES[name];
    const params: Record<string, string> = route.path.includes('{id}')
      ? { id: '5f0c6d3e-8d5b-4b7e-9a51-0d7f2b9c1a11' }
      : route.path.includes('{token}')
        ? { token: reportTokenOf(deps) }
        : {};
    const signed = name === 'stripeWebhook';
    const body = signed
      ? JSON.stringify({
          id: 'evt_store_down',
          object: 'event',
          type: 'customer.subscription.updated',
          data: { object: { object: 'subscription', id: 'sub_store_down' } },
        })
      : undefined;
    const event = apiEvent(route.method, routePath(route, params), {
      routePath: route.path,
      pathParameters: Object.keys(params).length > 0 ? params : undefined,
      token: route.access === 'public' ? undefined : token,
      ...(body
        ? {
            rawBody: body,
            headers: {
              'stripe-signature': signWebhookPayload(
                body,
                stripe.webhookSecret,
                Math.floor(Date.now() / 1000),
              ),
            },
          }
        : { body: PUBLIC_BODIES[name] }),
    });
    return API_HANDLERS[route.handler](deps)(event, {} as never);
  };

  const expectUnavailable = (result: ApiResult, deps: ReturnType<typeof appOn>) => {
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(result.body ?? '{}')).toEqual({ error: MESSAGES.request.storeUnavailable });
    expect(deps.metrics.countOf(METRIC.storeUnavailable)).toBe(1);
  };

  // Every route whose function touches the table (create-checkout only talks to Stripe).
  const routesOnTheTable = (Object.keys(ROUTES) as RouteName[]).filter(
    (name) => NEEDS[ROUTES[name].handler].table !== undefined,
  );

  it.each(routesOnTheTable)(
    '%s answers 503 with Retry-After and the French message when DynamoDB is unreachable',
    async (name) => {
      // Arrange: nobody listens on the port any more.
      const deps = appOn(`http://127.0.0.1:${await freePort()}`);

      // Act
      const result = await call(deps, name);

      // Assert
      expectUnavailable(result, deps);
      deps.table.doc.destroy();
    },
  );

  it.each([
    [
      'throttles every request',
      (respond: (status: number, body: object) => void) =>
        respond(400, {
          __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
          message: 'The level of configured provisioned throughput for the table was exceeded.',
        }),
    ],
    [
      'fails on its side',
      (respond: (status: number, body: object) => void) =>
        respond(500, { __type: 'com.amazon.coral.availability#InternalServerError', message: 'boom' }),
    ],
    ['never answers (time-out)', null],
  ])('answers sign-in and a protected call with 503 when DynamoDB %s', async (_label, answer) => {
    // Arrange
    const store = await fakeDynamoDb(answer);
    const deps = appOn(store.endpoint);
    const signInDeps = appOn(store.endpoint);
    try {
      // Act
      const protectedCall = await call(deps, 'getProfile');
      const signIn = await call(signInDeps, 'verifyLicense');

      // Assert
      expectUnavailable(protectedCall, deps);
      expectUnavailable(signIn, signInDeps);
    } finally {
      deps.table.doc.destroy();
      signInDeps.table.doc.destroy();
      await store.stop();
    }
  });

  it('still answers a refused condition or a missing item as before (not the store failing)', async () => {
    // Arrange: the live table.
    const deps = appOn(inject('dynamoEndpoint'));

    // Act: a lawyer id that names nobody.
    const result = await call(deps, 'getLawyer');

    // Assert
    expect(result.statusCode).toBe(404);
    expect(deps.metrics.countOf(METRIC.storeUnavailable)).toBe(0);
    deps.table.doc.destroy();
  });
});
