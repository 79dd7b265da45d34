import { EntityId } from '../../shared/schemas/common';
import { NotFoundError } from '../domain/core/errors';

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

/** The dotted path of the field a validation issue is about, or null for the body as a whole. */
export function fieldOf(path: readonly PropertyKey[] | undefined): string | null {
  return path?.length ? path.map(String).join('.') : null;
}
