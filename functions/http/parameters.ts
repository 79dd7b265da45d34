import type { z } from 'zod';

import { MESSAGES } from '../../shared/messages';
import { EntityId } from '../../shared/schemas/common';
import { InvalidInputError, NotFoundError } from '../domain/core/errors';

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
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(fieldOf(issue?.path), issue?.message ?? MESSAGES.request.invalid);
  }
  return parsed.data;
}

/** The dotted path of the field a validation issue is about, or null for the body as a whole. */
export function fieldOf(path: readonly PropertyKey[] | undefined): string | null {
  return path?.length ? path.map(String).join('.') : null;
}
