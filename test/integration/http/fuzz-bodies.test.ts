import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_HANDLERS } from '../../../functions/handlers';
import type { ApiHandler } from '../../../functions/http/api-event';
import type { HandlerName } from '../../../functions/needs';
import { ROUTES, type RouteDefinition, routePath } from '../../../shared/routes';
import { apiEvent, invoke } from '../../support/app';
import { type BillingTestbed, startBillingTestbed } from '../../support/billing';
import { issueAndSignIn } from '../../support/directory';
import { withExports } from '../../support/exports';

/**
 * Issue 14 §12: generated bodies against the real handlers (DynamoDB Local, the Stripe stand-in):
 * prototype-pollution keys, huge strings, deep nesting, wrong types, not JSON at all. Whatever
 * arrives, no reply is a 5xx, none carries a stack trace, and the server goes on serving.
 */

const BODIES_PER_ROUTE = 1_000;
const SEED = 14;

const POLLUTING_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__defineGetter__',
];

/** The top-level keys of a route's body schema, so that generated bodies hit real fields too. */
function keysOf(schema: z.ZodType | undefined): string[] {
  let def = (schema as unknown as { _zod?: { def: Record<string, unknown> } } | undefined)?._zod?.def;
  while (def && def.type !== 'object') {
    const inner = (def.in ?? def.innerType ?? def.schema) as
      | { _zod: { def: Record<string, unknown> } }
      | undefined;
    def = inner?._zod.def;
  }
  return def ? Object.keys(def.shape as object) : [];
}

const deeplyNested = fc
  .tuple(fc.integer({ min: 200, max: 5_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) =>
    open === '[' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${open.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** A raw request body: mostly JSON objects built around the route's own keys, sometimes worse. */
function bodies(routeKeys: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(routeKeys.length > 0 ? routeKeys : ['champ'])) },
    { weight: 2, arbitrary: fc.constantFrom(...POLLUTING_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
  const hugeString = fc.integer({ min: 1_000, max: 80_000 }).map((length) => 'é'.repeat(length));
  const leaf = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.uuid(),
    fc.emailAddress(),
    fc.webUrl(),
    fc.constantFrom('manual', 'manual_force', 'lawyer', 'notary', 'admin', 'initial', 'NOTARY-ABCDEFGH'),
  );
  const value = fc.letrec((tie) => ({
    any: fc.oneof({ depthSize: 'small', maxDepth: 3 }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('any'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('any'), { maxKeys: 4 }),
  })).any;
  const objectBody = fc.dictionary(key, value, { maxKeys: 8 });
  // JSON.stringify drops a __proto__ key made by assignment; writing the text keeps it on the wire.
  const pollutingText = fc
    .tuple(
      fc.constantFrom(...POLLUTING_KEYS),
      value,
      fc.constantFrom(...(routeKeys.length > 0 ? routeKeys : ['champ'])),
      value,
    )
    .map(
      ([bad, badValue, good, goodValue]) =>
        `{"${bad}":${JSON.stringify(badValue) ?? 'null'},"${good}":${JSON.stringify(goodValue) ?? 'null'}}`,
    );
  return fc.oneof(
    { weight: 10, arbitrary: objectBody.map((body) => JSON.stringify(body)) },
    { weight: 3, arbitrary: pollutingText },
    { weight: 2, arbitrary: value.map((body) => JSON.stringify(body) ?? '') },
    { weight: 1, arbitrary: deeplyNested },
    { weight: 1, arbitrary: hugeString.map((text) => JSON.stringify({ [routeKeys[0] ?? 'champ']: text })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}

/** A reply that gives away internals: a stack frame, a file path, an error class. */
const LEAK =
  /\bat\s+\S+\s+\(|\.(?:ts|js|mjs):\d+|node:internal|TypeError|ReferenceError|SyntaxError|RangeError/;

describe('generated bodies against every route', () => {
  let bed: BillingTestbed;
  // The firms' data exports of the local runtime, as every world of the product has them.
  let exports: ReturnType<typeof withExports<BillingTestbed['deps']>>;
  const handlers = new Map<string, ApiHandler>();
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    bed = await startBillingTestbed();
    exports = withExports(bed.deps);
    tokens.admin = (await issueAndSignIn(bed.deps, 'admin')).token;
    tokens.member = (await issueAndSignIn(bed.deps, 'lawyer')).token;
  });

  afterAll(async () => {
    await exports?.dispose();
    await bed?.stop();
  });

  const handlerOf = (route: RouteDefinition & { handler: HandlerName }): ApiHandler => {
    let handler = handlers.get(route.handler);
    if (!handler) {
      handler = API_HANDLERS[route.handler](exports.app);
      handlers.set(route.handler, handler);
    }
    return handler;
  };

  /** The caller a route's bodies come from: one that passes its access check, so the body is read. */
  const tokenFor = (route: RouteDefinition): string | undefined => {
    // A route without a body schema never reads one: called without a session, cheaply refused.
    if (!route.request) return undefined;
    if (route.access === 'admin' || route.access === 'signed-in') return tokens.admin;
    if (route.access === 'member') return tokens.member;
    return undefined;
  };

  const routes = Object.entries(ROUTES as Record<string, RouteDefinition & { handler: HandlerName }>);

  // 66,000 requests through the local runtime, beside other files in flight: a bound for a hang, not a budget.
  it(`answers ${BODIES_PER_ROUTE} generated bodies per route (${routes.length} routes) without a 5xx or a leak`, {
    timeout: 900_000,
  }, async () => {
    const replies: Record<string, number> = {};
    await Promise.all(
      routes.map(([name, route]) => {
        const params = Object.fromEntries(
          [...route.path.matchAll(/\{(\w+)\}/g)].map(([, parameter]) => [parameter as string, randomUUID()]),
        );
        const path = routePath(route, params);
        return fc.assert(
          fc.asyncProperty(bodies(keysOf(route.request)), async (rawBody) => {
            const { statusCode, result } = await invoke(
              handlerOf(route),
              apiEvent(route.method, path, {
                routePath: route.path,
                pathParameters: Object.keys(params).length > 0 ? params : undefined,
                rawBody,
                token: tokenFor(route),
                sourceIp: '198.51.100.77',
              }),
            ).catch((error: unknown) => {
              throw new Error(`${name}: le handler a levé ${String(error)}`);
            });
            replies[name] = (replies[name] ?? 0) + 1;
            if (statusCode >= 500 || LEAK.test(result.body ?? '')) {
              throw new Error(
                `${name}: ${statusCode} ${result.body?.slice(0, 300)} pour ${rawBody.slice(0, 200)}`,
              );
            }
          }),
          { numRuns: BODIES_PER_ROUTE, seed: SEED, endOnFailure: true },
        );
      }),
    );

    for (const [name] of routes) expect(replies[name], name).toBe(BODIES_PER_ROUTE);
    // Nothing reached Object.prototype.
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is still serving afterwards', async () => {
    const { statusCode, body } = await invoke<{ workflows: unknown[] }>(
      handlerOf(ROUTES.listWorkflows),
      apiEvent('GET', '/api/workflows', { routePath: '/api/workflows', token: tokens.admin }),
    );
    expect(statusCode).toBe(200);
    expect(Array.isArray(body.workflows)).toBe(true);
  });
});
