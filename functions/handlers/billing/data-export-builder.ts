import * as z from 'zod';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, type LambdaHandler, lambdaEntry } from '../../runtime/entry';
import { dataExportsOf } from '../../runtime/services/data-exports';

/** What a request hands the builder: the export to build. */
export const ExportJob = z.object({ exportId: z.string().min(1) });
export type ExportJob = z.infer<typeof ExportJob>;

/**
 * Builds one firm's export in the background: invoked asynchronously by POST /api/data-exports
 * in AWS (a task of the process locally), it streams the ZIP to the exports bucket and marks the
 * export ready or failed. A failure is not retried (the firm is told and asks again).
 */
const create = (deps: AppDependencies): LambdaHandler<unknown, void> => {
  const exports = dataExportsOf(deps);
  return async (event) => {
    const job = ExportJob.parse(event);
    await exports.build(job.exportId);
  };
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createDataExportBuilderHandler = declaredFunction('data-export-builder', create);

export const handler = lambdaEntry('data-export-builder', createDataExportBuilderHandler);
