import { createHash } from 'node:crypto';

import { MESSAGES } from '../../shared/messages';
import type { RouteDefinition } from '../../shared/routes';
import { InvalidInputError } from '../domain/core/errors';
import type { SessionContext } from '../domain/identity/sessions';

/**
 * The cursors of list replies are the caller's: each `nextCursor` goes out prefixed with a digest of
 * the caller's licence and the route, and a cursor comes back in only with the prefix of the same
 * caller and route. A cursor of another user or another list is a 400 'Curseur invalide' before
 * the list reads it; the list checks the rest (its own list, its own search).
 */
const tagOf = (session: Pick<SessionContext, 'licenseKeyHash'>, route: RouteDefinition) =>
  createHash('sha256')
    .update(`${session.licenseKeyHash}\n${route.method} ${route.path}`)
    .digest('base64url')
    .slice(0, 12);

/** The query with its `cursor` as the list gave it, checked to be the caller's. */
export function callerQuery<Q>(
  query: Q,
  session: Pick<SessionContext, 'licenseKeyHash'> | null,
  route: RouteDefinition,
): Q {
  if (!query || typeof query !== 'object' || !session) return query;
  const { cursor } = query as { cursor?: unknown };
  if (typeof cursor !== 'string') return query;
  const dot = cursor.indexOf('.');
  if (dot < 0 || cursor.slice(0, dot) !== tagOf(session, route))
    throw new InvalidInputError('cursor', MESSAGES.request.invalidCursor);
  return { ...query, cursor: cursor.slice(dot + 1) } as Q;
}

/** The reply with its `nextCursor`, when it has one, made the caller's. */
export function callerReply(
  result: unknown,
  session: SessionContext | null,
  route: RouteDefinition,
): unknown {
  if (!session || !result || typeof result !== 'object' || !('nextCursor' in result)) return result;
  const { nextCursor } = result as { nextCursor: unknown };
  if (typeof nextCursor !== 'string') return result;
  return { ...result, nextCursor: `${tagOf(session, route)}.${nextCursor}` };
}
