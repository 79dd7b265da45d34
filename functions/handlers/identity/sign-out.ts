import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { sessionServiceOf } from '../../runtime/services/sessions';

/** POST /api/sign-out: 'Déconnexion' ends the session on the server too. */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    signOut: async ({ session }) => {
      await sessionServiceOf(deps, await deps.appKeys()).close(session.sessionId);
      return { success: true as const };
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createSignOutHandler = declaredFunction('sign-out', create);

export const handler = lambdaEntry('sign-out', createSignOutHandler);
