import type { Table } from '../../data/table/table';
import type { Clock } from '../../domain/core/ports';
import type { SessionService } from '../../domain/identity/sessions';
import type { AppKeys } from '../../security/app-keys';

/**
 * The session service, loaded on first use and only in a function holding the session key
 * (`BUNDLED_NEED_SESSIONS`): the others' bundles leave the session check out, with its
 * repositories, the token library and, for a function without a table, the DynamoDB client.
 */
export async function loadSessionService(
  deps: { readonly table: Table; readonly clock: Clock },
  keys: Pick<AppKeys, 'sessionSigningKey'>,
): Promise<SessionService> {
  if (process.env.BUNDLED_NEED_SESSIONS ?? true) {
    const { sessionServiceOf } = await import('./sessions');
    return sessionServiceOf(deps, keys);
  }
  throw new Error('Vérification des sessions non construite');
}
