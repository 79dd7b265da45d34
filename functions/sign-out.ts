import { SessionService } from './domain/sessions';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/** POST /api/sign-out: 'Déconnexion' ends the session on the server too. */
export const createSignOutHandler = (deps: AppDependencies) =>
  apiHandler(deps, {
    signOut: async ({ session }) => {
      await new SessionService(deps.table, await deps.appKeys(), deps.clock).close(session.sessionId);
      return { success: true as const };
    },
  });

export const handler = lambdaEntry(createSignOutHandler);
