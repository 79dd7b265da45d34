import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { completionReportsOf } from '../../runtime/services/scheduling';

/**
 * POST /api/reports/{token}: a run's completion report, posted by the firm's workflow at its end to
 * the `report.url` of the webhook body (docs/n8n-completion-report.md). Public: the signed,
 * single-use link is the credential.
 */
const create = (deps: AppDependencies) => {
  const reports = completionReportsOf(deps);
  return apiHandler(deps, {
    submitCompletionReport: async ({ body, pathParameters }) =>
      reports.submit(pathParameters.token ?? '', body),
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createCompletionReportHandler = declaredFunction('completion-report', create);

export const handler = lambdaEntry('completion-report', createCompletionReportHandler);
