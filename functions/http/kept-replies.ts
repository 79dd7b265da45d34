import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';

import { IDEMPOTENCY_MESSAGES } from '../../shared/idempotency-messages';
import { type RouteDefinition, routeKey } from '../../shared/routes';
import { IdempotencyKeyReusedError, InvalidInputError } from '../domain/core/errors';
import type { FirstReplies, FirstReply, ReplyKey } from '../domain/core/ports';
import { type ApiEvent, type ApiResult, jsonResult } from './api-event';
import type { RouteContext } from './middlewares';

/** The header a client sends with a create, the same on every retry of that create. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** A route that keeps its first reply, and the status it is sent with. */
export type IdempotentRoute = RouteDefinition & { readonly idempotent: { readonly status: 200 | 201 } };

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** A first reply sent again, marked so the client (and a test) can tell. */
const replayed = (reply: FirstReply): ApiResult => {
  const result = jsonResult(reply.statusCode, reply.body);
  return { ...result, headers: { ...result.headers, 'idempotent-replayed': 'true' } };
};

/**
 * A client's key scoped to its licence (`owner`, its hash) and the route: one client cannot replay
 * another's reply. What is kept, and what the payment provider receives.
 */
export const scopedKey = (owner: string, route: RouteDefinition, header: string) =>
  sha256(`${owner}\n${routeKey(route)}\n${header}`);

/** The request's Idempotency-Key, checked and scoped to the caller and the route; null without one. */
function replyKeyOf(route: IdempotentRoute, event: ApiEvent, context: RouteContext): ReplyKey | null {
  const header = event.headers?.[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return null;
  if (!KEY_PATTERN.test(header))
    throw new InvalidInputError(IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES.invalidKey);
  return {
    key: scopedKey(context.session?.licenseKeyHash ?? '', route, header),
    // Salted with the client's key, which is never stored: the hash kept for a day tells nothing
    // of a body's secrets (a lawyer's Google password) to whoever reads the table.
    requestHash: sha256(`${header}\n${JSON.stringify(context.body ?? null)}`),
    statusCode: route.idempotent.status,
  };
}

/**
 * The pipeline step of a create made at the payment provider, which keeps the first result itself
 * (Stripe's idempotent requests): the key is only checked and scoped here, then passed on.
 */
export function keptByProvider(
  route: IdempotentRoute,
): MiddlewareObj<ApiEvent, ApiResult, Error, RouteContext> {
  return {
    name: 'keptByProvider',
    before: (request) => {
      request.context.replyKey = replyKeyOf(route, request.event, request.context);
    },
  };
}

/**
 * The pipeline step of a route that keeps its first reply (`idempotent`): a create sent again with
 * the same `Idempotency-Key` by the same licence gets the reply the first one got, whether it finds
 * it before creating or its own create is refused because the first one just kept it; the same key
 * with another request is refused. The reply itself is written by the create, in its transaction.
 */
export function keptReplies(
  route: IdempotentRoute,
  replies: FirstReplies,
): MiddlewareObj<ApiEvent, ApiResult, Error, RouteContext> {
  return {
    name: 'keptReplies',
    before: async (request) => {
      const replyKey = replyKeyOf(route, request.event, request.context);
      request.context.replyKey = replyKey;
      if (!replyKey) return undefined;
      const first = await replies.get(replyKey.key);
      if (!first) return undefined;
      if (first.requestHash !== replyKey.requestHash)
        throw new IdempotencyKeyReusedError(IDEMPOTENCY_MESSAGES.keyReused);
      return replayed(first);
    },
    // A concurrent retry's create was refused because the first one kept its reply meanwhile.
    onError: async (request) => {
      const replyKey = request.context.replyKey;
      if (!replyKey) return undefined;
      const first = await replies.get(replyKey.key).catch(() => null);
      return first?.requestHash === replyKey.requestHash ? replayed(first) : undefined;
    },
  };
}
