import type { z } from 'zod';

import { MESSAGES } from '../../shared/messages';
import { EntityId } from '../../shared/schemas/common';
import { BadRequestError, NotFoundError } from '../domain/errors';

/**
 * The `{id}` path parameter of a resource. Ids are server-generated UUIDs, so anything else names
 * no resource: a 404 with the resource's own French message, never a 5xx.
 */
export function idParameter(
  pathParameters: Readonly<Record<string, string | undefined>>,
  notFoundMessage: string,
): string {
  const parsed = EntityId.safeParse(pathParameters.id);
  if (!parsed.success) throw new NotFoundError(notFoundMessage);
  return parsed.data;
}

/** The query string validated with its shared schema: a 400 with the first French message if wrong. */
export function parsedQuery<S extends z.ZodType>(
  schema: S,
  query: Readonly<Record<string, string | undefined>>,
): z.output<S> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? MESSAGES.request.invalid);
  return parsed.data;
}
