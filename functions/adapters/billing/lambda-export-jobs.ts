import type { LambdaClient } from '@aws-sdk/client-lambda';

import type { ExportJobs } from '../../domain/billing/data-export';
import { startFunction } from '../core/lambda-invoke';

/** The builder started by an asynchronous invocation: the request answers at once. */
export function createLambdaExportJobs(client: LambdaClient, functionName: () => string): ExportJobs {
  return {
    async start(exportId) {
      await startFunction(client, functionName(), { exportId });
    },
  };
}
