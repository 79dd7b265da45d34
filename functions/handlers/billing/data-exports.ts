import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { dataExportsOf } from '../../runtime/services/data-exports';

/**
 * 'Exporter mes données' (spec, privacy section 7): POST /api/data-exports starts a firm's export
 * in the background (step-up, audited, one at a time); GET /api/data-exports/current says where
 * it is and gives its download link, valid one hour. A lawyer or notary: his own firm; an admin:
 * the lawyer he names.
 */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    startDataExport: async ({ body, session }) => dataExportsOf(deps).request(session, body.lawyerId),
    currentDataExport: async ({ query, session }) => ({
      export: await dataExportsOf(deps).current(session, query.lawyerId),
    }),
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createDataExportsHandler = declaredFunction('data-exports', create);

export const handler = lambdaEntry('data-exports', createDataExportsHandler);
