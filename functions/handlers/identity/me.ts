import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { profileServiceOf } from '../../runtime/services/directory';

/** /api/me: the signed-in lawyer's or notary's own profile (read, save). */
const create = (deps: AppDependencies) => {
  const profiles = () => profileServiceOf(deps);

  return apiHandler(deps, {
    getProfile: async ({ session }) => (await profiles()).read(session),
    saveProfile: async ({ body, session }) => (await profiles()).save(body, session),
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createMeHandler = declaredFunction('me', create);

export const handler = lambdaEntry('me', createMeHandler);
