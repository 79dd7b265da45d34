import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';

import { MAX_BODY_BYTES } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';
import type { RouteDefinition } from '../../shared/routes';
import {
  ExistingLawyerError,
  ForbiddenError,
  InvalidInputError,
  SecondFactorPendingError,
  UnauthenticatedError,
} from '../domain/core/errors';
import { METRIC, type Metrics } from '../domain/core/metrics';
import type { Logger, ReadAhead, ReplyKey } from '../domain/core/ports';
import type { SessionContext, SessionService, TokenClaims } from '../domain/identity/sessions';
import { type ApiEvent, type ApiResult, bearerTokenOf, fromOrigin, jsonResult } from './api-event';
import { errorReplyOf, RequestTooLargeError } from './error-statuses';
import { fieldOf } from './parameters';

/** What the middlewares established about a request, for the handler. */
export interface RouteContext extends Context {
  body?: unknown;
  query?: unknown;
  session?: SessionContext | null;
  /** A create's Idempotency-Key, scoped to the caller (`kept-replies.ts`); null without one. */
  replyKey?: ReplyKey | null;
  /** The route's early read, started beside the session's (null when none was). */
  early?: ReadAhead<unknown> | null;
  /** The query string parsed with the route's schema, once (`parsedQueryOf`). */
  parsedQuery?: z.ZodSafeParseResult<unknown>;
}

/**
 * Starts a route's read from a verified token's claims, before its session is re-read; null for
 * none. It gets the query as the route's schema parsed it (undefined for a route without one).
 */
export type EarlyStart = (
  query: z.ZodSafeParseResult<unknown> | undefined,
  claims: TokenClaims,
) => ReadAhead<unknown> | null;

/** The query string parsed with the route's schema, once a request: the early read's and the route's. */
function parsedQueryOf(
  route: RouteDefinition,
  request: Request<ApiEvent, ApiResult, Error, RouteContext>,
): z.ZodSafeParseResult<unknown> | undefined {
  if (!route.query) return undefined;
  request.context.parsedQuery ??= route.query.safeParse(request.event.queryStringParameters ?? {});
  return request.context.parsedQuery;
}

type ApiMiddleware = MiddlewareObj<ApiEvent, ApiResult, Error, RouteContext>;

/**
 * Refuses, before anything else, a request that did not come through CloudFront: in AWS every
 * route (the Stripe webhook included, Stripe posts to the site's address) requires the origin
 * secret CloudFront adds, so the execute-api address answers nothing but 403. Where no origin
 * secret exists (the local runtime, tests) there is nothing to check.
 */
export function originVerified(originSecret: (() => Promise<string>) | undefined): ApiMiddleware {
  return {
    name: 'originVerified',
    before: async (request) => {
      if (!originSecret) return;
      if (!fromOrigin(request.event, await originSecret()))
        throw new ForbiddenError(MESSAGES.request.directAccess);
    },
  };
}

/**
 * The body as the client sent it, decoded if API Gateway base64-encoded it, never re-serialised
 * (a signature covers the bytes). Larger than `maxBytes`: a 413 before anything else is done; the
 * encoded length is checked first, so that a huge body is refused without being decoded.
 */
export function bodyTextOf(event: ApiEvent, maxBytes: number): string {
  const { body: raw, isBase64Encoded } = event;
  if (raw && raw.length > maxBytes * 2) throw new RequestTooLargeError();
  const text = raw && isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : (raw ?? '');
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw new RequestTooLargeError();
  return text;
}

/**
 * Parses and validates the JSON body with the route's schema. Missing, not JSON, not an object,
 * too large or invalid: a 400 (413 for size) with a French message, before any work is done.
 */
export function validatedJsonBody(route: RouteDefinition): ApiMiddleware {
  return {
    name: 'validatedJsonBody',
    before: (request) => {
      const schema = route.request;
      if (!schema) return;
      const text = bodyTextOf(request.event, MAX_BODY_BYTES);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new InvalidInputError(null, MESSAGES.request.notJson);
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        throw new InvalidInputError(null, MESSAGES.request.notJson);
      }
      request.context.body = valid(schema.safeParse(json));
    },
  };
}

/** Parses the query string with the route's schema: a 400 naming the field, in French, if wrong. */
export function validatedQuery(route: RouteDefinition): ApiMiddleware {
  return {
    name: 'validatedQuery',
    before: (request) => {
      const parsed = parsedQueryOf(route, request);
      if (!parsed) return;
      request.context.query = valid(parsed);
    },
  };
}

/** The parsed value, or the 400 of its first issue. */
function valid<T>(parsed: z.ZodSafeParseResult<T>): T {
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError(fieldOf(issue?.path), issue?.message ?? MESSAGES.request.invalid);
}

/**
 * Establishes the caller of a protected route: a valid session whose licence is still active
 * (re-read on every request), with the role the route requires. A route's early read starts beside
 * that read and reaches the route only if the caller passes.
 */
export function authorizedSession(
  route: RouteDefinition,
  sessions: () => Promise<SessionService>,
  early?: EarlyStart,
): ApiMiddleware {
  return {
    name: 'authorizedSession',
    before: async (request) => {
      if (route.access === 'public') {
        request.context.session = null;
        return;
      }
      const token = bearerTokenOf(request.event);
      if (!token) throw new UnauthenticatedError(MESSAGES.session.required);
      const service = await sessions();
      const claims = await service.claimsOf(token);
      // Side by side with the session's read; what it reads is used only once that read allows it.
      const started = early?.(parsedQueryOf(route, request), claims) ?? null;
      started?.reply.catch(() => undefined);
      const session = await service.sessionOf(claims);
      // A session opened by the licence key alone may only finish its sign-in.
      if (route.access === 'second-factor') {
        request.context.session = session;
        return;
      }
      if (session.secondFactorPending) throw new SecondFactorPendingError();
      const allowed =
        route.access === 'signed-in' ||
        (route.access === 'admin' && session.role === 'admin') ||
        (route.access === 'member' && (session.role === 'lawyer' || session.role === 'notary'));
      if (!allowed) throw new ForbiddenError(MESSAGES.session.forbidden);
      if (route.sensitive) await service.requireRecentSecondFactor(session);
      request.context.session = session;
      request.context.early = started;
    },
  };
}

/**
 * The error handler, registered last so that its onError runs first: the status table of
 * `error-statuses.ts` gives the status and French message; an error it does not know is logged
 * (name and message, never the request) and becomes a 500 without details.
 */
export function errorReply(logger: Logger, metrics: Metrics, route: RouteDefinition): ApiMiddleware {
  return {
    name: 'errorReply',
    onError: (request) => {
      const { error } = request;
      const reply = errorReplyOf(error);
      // The function returns normally, so Lambda's Errors never sees these.
      if (reply.statusCode >= 500) metrics.count(METRIC.handledServerError);
      const routeName = `${route.method} ${route.path}`;
      if (reply.kind === 'write-conflict') logger.warn('Conflit d’écriture', { route: routeName });
      if (reply.kind === 'unexpected') {
        logger.error('Erreur non gérée', {
          route: routeName,
          errorName: error?.name,
          errorMessage: error?.message,
        });
      }
      if (reply.retryAfterSeconds !== undefined) {
        metrics.count(METRIC.storeUnavailable);
        logger.warn('Base de données indisponible', {
          route: routeName,
          errorName: (error?.cause as Error | undefined)?.name,
        });
      }
      const result = jsonResult(reply.statusCode, {
        error: reply.message,
        ...(reply.code ? { code: reply.code } : {}),
        // 'Nouvel avocat' on an existing lawyer: the reply names him, for the admin to confirm.
        ...(error instanceof ExistingLawyerError ? { existingLawyer: error.existingLawyer } : {}),
      });
      if (reply.retryAfterSeconds !== undefined)
        result.headers = { ...result.headers, 'retry-after': String(reply.retryAfterSeconds) };
      request.response = result;
    },
  };
}
