import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

import { MAX_BODY_BYTES } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';
import type { RouteDefinition } from '../../shared/routes';
import { isWriteConflict } from '../data/table';
import { BadRequestError, ForbiddenError, HttpError, UnauthorizedError } from '../domain/errors';
import type { SessionContext, SessionService } from '../domain/sessions';
import type { Logger } from '../runtime/dependencies';
import { type ApiEvent, type ApiResult, bearerTokenOf, fromOrigin, jsonResult } from './api-event';

/** What the middlewares established about a request, for the handler. */
export interface RouteContext extends Context {
  body?: unknown;
  session?: SessionContext | null;
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
 * Parses and validates the JSON body with the route's schema. Missing, not JSON, not an object,
 * too large or invalid: a 400 (413 for size) with a French message, before any work is done.
 */
export function validatedJsonBody(route: RouteDefinition): ApiMiddleware {
  return {
    name: 'validatedJsonBody',
    before: (request) => {
      const schema = route.request;
      if (!schema) return;
      const { body: raw, isBase64Encoded } = request.event;
      if (raw && raw.length > MAX_BODY_BYTES * 2) throw new HttpError(413, MESSAGES.request.tooLarge);
      const text = raw && isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : (raw ?? '');
      if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES)
        throw new HttpError(413, MESSAGES.request.tooLarge);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new BadRequestError(MESSAGES.request.notJson);
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        throw new BadRequestError(MESSAGES.request.notJson);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success)
        throw new BadRequestError(parsed.error.issues[0]?.message ?? MESSAGES.request.invalid);
      request.context.body = parsed.data;
    },
  };
}

/**
 * Establishes the caller of a protected route: a valid session whose licence is still active
 * (re-read on every request), with the role the route requires.
 */
export function authorizedSession(
  route: RouteDefinition,
  sessions: () => Promise<SessionService>,
): ApiMiddleware {
  return {
    name: 'authorizedSession',
    before: async (request) => {
      if (route.access === 'public') {
        request.context.session = null;
        return;
      }
      const token = bearerTokenOf(request.event);
      if (!token) throw new UnauthorizedError(MESSAGES.session.required);
      const session = await (await sessions()).authenticate(token);
      const allowed =
        route.access === 'signed-in' ||
        (route.access === 'admin' && session.role === 'admin') ||
        (route.access === 'member' && (session.role === 'lawyer' || session.role === 'notary'));
      if (!allowed) throw new ForbiddenError(MESSAGES.session.forbidden);
      request.context.session = session;
    },
  };
}

/**
 * The error handler, registered last so that its onError runs first: an HttpError becomes its
 * status and French message; anything else is logged (name and message, never the request) and
 * becomes a 500 without details.
 */
export function errorReply(logger: Logger, route: RouteDefinition): ApiMiddleware {
  return {
    name: 'errorReply',
    onError: (request) => {
      const { error } = request;
      if (error instanceof HttpError) {
        request.response = jsonResult(error.statusCode, { error: error.message });
        return;
      }
      if (isWriteConflict(error)) {
        logger.warn('Conflit d’écriture', { route: `${route.method} ${route.path}` });
        request.response = jsonResult(409, { error: MESSAGES.request.conflict });
        return;
      }
      logger.error('Erreur non gérée', {
        route: `${route.method} ${route.path}`,
        errorName: error?.name,
        errorMessage: error?.message,
      });
      request.response = jsonResult(500, { error: MESSAGES.request.internal });
    },
  };
}
