import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

import type { ExportJobs } from '../../domain/billing/data-export';

/** The builder started by an asynchronous invocation: the request answers at once. */
export function createLambdaExportJobs(client: LambdaClient, functionName: () => string): ExportJobs {
  return {
    async start(exportId) {
      const { StatusCode } = await client.send(
        new InvokeCommand({
          FunctionName: functionName(),
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify({ exportId })),
        }),
      );
      if (StatusCode !== 202) throw new Error(`Lambda : constructeur des exports non lancé (${StatusCode})`);
    },
  };
}
