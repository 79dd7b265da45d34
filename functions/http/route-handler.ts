import middy, { type MiddlewareObj } from '@middy/core';
import type { z } from 'zod';

import { MESSAGES } from '../../shared/messages';
import { ROUTES, type RouteDefinition, type RouteName, type Routes, routeKey } from '../../shared/routes';
import type { ReadAhead, ReplyKey } from '../domain/core/ports';
import type { SessionService, TokenClaims } from '../domain/identity/sessions';
import type { AppDependencies } from '../runtime/dependencies';
import { loadSessionService } from '../runtime/services/session-check';
import type { AppKeys } from '../security/app-keys';
import { type ApiEvent, type ApiHandler, type ApiResult, clientAddressOf, jsonResult } from './api-event';
import { callerQuery, callerReply } from './caller-cursors';
import type { IdempotentRoute } from './kept-replies';
import {
  authorizedSession,
  type EarlyStart,
  errorReply,
  originVerified,
  type RouteContext,
  validatedJsonBody,
  validatedQuery,
} from './middlewares';

type BodyOf<N extends RouteName> = Routes[N] extends { request: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;
type QueryOf<N extends RouteName> = Routes[N] extends { query: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;
/** A reply as the services build it (what an early read gives back). */
type BuiltReplyOf<N extends RouteName> = z.output<Routes[N]['response']>;
type SessionOf<N extends RouteName> = Routes[N]['access'] extends 'public'
  ? null
  : import('../domain/identity/sessions').SessionContext;

/** What a route implementation receives: the validated body, the caller and the raw parameters. */
export interface RouteRequest<N extends RouteName> {
  readonly body: BodyOf<N>;
  readonly session: SessionOf<N>;
  readonly pathParameters: Readonly<Record<string, string | undefined>>;
  /** The query string parsed with the route's schema (undefined for a route without one). */
  readonly query: QueryOf<N>;
  /**
   * The caller's address; behind CloudFront trusted only with the origin secret, which only the
   * functions that declare `originSecret` read (so only they ask).
   */
  readonly clientAddress: () => Promise<string>;
  /** The request's cookies, `name=value` each (API Gateway's `cookies`; the SPA sends only ours). */
  readonly cookies: readonly string[];
  /** The browser's user agent, as it says it (to name a remembered browser). */
  readonly userAgent: string;
  /**
   * A create's Idempotency-Key (routes marked `idempotent`), scoped to the caller: the service
   * keeps its reply with the change. Null without one.
   */
  readonly replyKey: ReplyKey | null;
  /** The route's early read (`EarlyReads`), when one was started for this caller. */
  readonly early: ReadAhead<BuiltReplyOf<N>> | null;
}

/**
 * A read a route may start beside the caller's session check, from what the verified token claims
 * (its role, its e-mail): the reply's store calls then wait for the session's instead of after it.
 * The route still decides from the session re-read: it uses the read only when that gives the same
 * `readFor`.
 */
export type EarlyRead<N extends RouteName> = (request: {
  readonly query: QueryOf<N>;
  readonly claims: TokenClaims;
}) => ReadAhead<BuiltReplyOf<N>> | null;

export type EarlyReads = { [N in RouteName]?: EarlyRead<N> };

const STATUS = Symbol('status');

/** A reply with a status other than 200, or cookies to set. */
export interface StatusReply<T> {
  readonly [STATUS]: number;
  readonly body: T;
  /** `Set-Cookie` values. */
  readonly cookies?: readonly string[];
}

export function withStatus<T>(statusCode: number, body: T): StatusReply<T> {
  return { [STATUS]: statusCode, body };
}

/** A 200 reply that also sets cookies (the device cookie of a remembered browser). */
export function withCookies<T>(cookies: readonly string[], body: T): StatusReply<T> {
  return { [STATUS]: 200, body, cookies };
}

export type RouteImplementation<N extends RouteName> = (
  request: RouteRequest<N>,
) => Promise<z.input<Routes[N]['response']> | StatusReply<z.input<Routes[N]['response']>>>;

export type RouteImplementations = { [N in RouteName]?: RouteImplementation<N> };

/** What the routes of a handler need beyond their implementations. */
export interface ApiHandlerOptions {
  /**
   * The pipeline step of its `idempotent` routes (`kept-replies.ts`), given by the handlers that
   * have such routes, so that no other function's bundle carries it.
   */
  readonly keptReplies?: (route: IdempotentRoute) => MiddlewareObj<ApiEvent, ApiResult, Error, RouteContext>;
  /** Reads started beside the caller's session check (`EarlyRead`). */
  readonly earlyReads?: EarlyReads;
}

/**
 * Builds the Lambda handler of one backend call or resource: for each route it serves, a middy
 * pipeline (origin secret, session and role, validated body, then the error handler last) around the route's
 * implementation. A resource handler serving several routes dispatches on the route key.
 */
export function apiHandler(
  deps: AppDependencies,
  implementations: RouteImplementations,
  options: ApiHandlerOptions = {},
): ApiHandler {
  // Rebuilt when the keys change: the AWS keys are re-read at most every 5 minutes, so a rotated
  // session key is used without a deployment.
  let sessions: { keys: AppKeys; service: SessionService } | undefined;
  const sessionService = async () => {
    const keys = await deps.appKeys();
    if (sessions?.keys !== keys) sessions = { keys, service: await loadSessionService(deps, keys) };
    return sessions.service;
  };
  const pipelines = new Map<string, ApiHandler>();
  for (const [name, implementation] of Object.entries(implementations)) {
    const route: RouteDefinition = ROUTES[name as RouteName];
    const run = implementation as (request: RouteRequest<RouteName>) => Promise<unknown>;
    const pipeline = middy<ApiEvent, ApiResult, Error, RouteContext>()
      .use(originVerified(deps.originSecret))
      .use(
        authorizedSession(route, sessionService, earlyStart(route, options.earlyReads?.[name as RouteName])),
      )
      .use(validatedJsonBody(route))
      .use(validatedQuery(route))
      .use(errorReply(deps.logger, deps.metrics, route));
    // After errorReply: its onError runs first, and replays a reply a concurrent retry kept. A
    // handler with such a route and no keptReplies fails at once.
    if (route.idempotent) pipeline.use(options.keptReplies!(route as IdempotentRoute));
    pipeline.handler(async (event, context) => {
      const session = context.session ?? null;
      const result = await run({
        body: context.body as never,
        session: session as never,
        pathParameters: event.pathParameters ?? {},
        // A list's cursors are the caller's own (caller-cursors.ts).
        query: callerQuery(context.query, session, route) as never,
        clientAddress: async () => clientAddressOf(event, await deps.originSecret?.()),
        cookies: cookiesOf(event),
        userAgent: event.requestContext.http.userAgent ?? '',
        replyKey: context.replyKey ?? null,
        early: (context.early ?? null) as never,
      }).then((reply) => callerReply(reply, session, route));
      if (result && typeof result === 'object' && STATUS in result) {
        const reply = result as StatusReply<unknown>;
        const json = jsonResult(reply[STATUS], reply.body);
        return reply.cookies?.length ? { ...json, cookies: [...reply.cookies] } : json;
      }
      return jsonResult(200, result);
    });
    pipelines.set(routeKey(route), pipeline as ApiHandler);
  }
  return byRouteKey(pipelines);
}

/**
 * Starts a route's early read with its query as the route will get it: parsed with its schema and
 * its cursor checked to be the token's licence's. A query the route would refuse starts nothing.
 */
function earlyStart(route: RouteDefinition, read: EarlyRead<RouteName> | undefined): EarlyStart | undefined {
  if (!read) return undefined;
  return (parsed, claims) => {
    if (!claims.licenseKeyHash || (parsed && !parsed.success)) return null;
    try {
      const query = callerQuery(parsed?.data, { licenseKeyHash: claims.licenseKeyHash }, route);
      return read({ query: query as never, claims });
    } catch {
      return null;
    }
  };
}

/** A request's cookies: API Gateway's `cookies` (payload 2.0), else the Cookie header. */
function cookiesOf(event: ApiEvent): readonly string[] {
  if (event.cookies?.length) return event.cookies;
  const header = event.headers?.cookie;
  return header ? header.split(/;\s*/) : [];
}

/**
 * The handler of a Lambda serving several routes, each by its own pipeline: dispatches on the
 * route key; a route it does not serve is a 404.
 */
export function byRouteKey(pipelines: ReadonlyMap<string, ApiHandler>): ApiHandler {
  return async (event, context) => {
    const pipeline = pipelines.get(event.routeKey);
    if (!pipeline) return jsonResult(404, { error: MESSAGES.request.notFound });
    return pipeline(event, context);
  };
}
