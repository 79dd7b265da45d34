import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { licenseLookupServiceOf } from '../../runtime/services/identity';
import { createLicenseKeyVault } from '../../security/license-key-vault';

/**
 * /api/licenses: licence look-ups by user e-mail and type (query string) and by key (a POST body,
 * so a key never travels in a URL); any licence for an admin, his own for a lawyer or notary.
 */
const create = (deps: AppDependencies) => {
  const licenses = async () =>
    licenseLookupServiceOf(deps.table, createLicenseKeyVault(await deps.appKeys()));

  return apiHandler(deps, {
    findLicenseByEmail: async ({ query, session }) => ({
      license: await (await licenses()).byEmail(query, session),
    }),
    findLicenseByKey: async ({ body, session }) => ({
      license: await (await licenses()).byKey(body, session),
    }),
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createLicensesHandler = declaredFunction('licenses', create);

export const handler = lambdaEntry('licenses', createLicensesHandler);
