import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

import { mapWithConcurrency } from '../domain/concurrency';
import type { DueClaimers } from '../runtime/scheduling-ports';

/** Invocations in flight at once while the coordinator starts the claimers. */
const START_CONCURRENCY = 16;

/**
 * The claimers in AWS: one asynchronous invocation (`InvocationType: 'Event'`) of the claimer
 * function per shard. Asynchronous invocations start at once at any count (no event source to scale
 * up), and Lambda retries a failed one twice; a shard whose claimer failed for good stays due and
 * the next tick reads it again.
 */
export function createLambdaClaimers(client: LambdaClient, functionName: () => string): DueClaimers {
  return {
    async start(requests) {
      const started = await mapWithConcurrency(requests, START_CONCURRENCY, async (request) => {
        try {
          const { StatusCode } = await client.send(
            new InvokeCommand({
              FunctionName: functionName(),
              InvocationType: 'Event',
              Payload: new TextEncoder().encode(JSON.stringify(request)),
            }),
          );
          return StatusCode === 202;
        } catch {
          return false;
        }
      });
      return { failed: requests.filter((_, index) => !started[index]).map((request) => request.shard) };
    },
  };
}
