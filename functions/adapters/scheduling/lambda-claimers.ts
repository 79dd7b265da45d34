import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

import { mapWithConcurrency } from '../../domain/core/concurrency';
import { type DueClaimers, ShardClaimAnswer } from '../../domain/scheduling/ports';
import { startFunction } from '../core/lambda-invoke';

/** Asynchronous invocations in flight at once while the coordinator starts the claimers. */
const START_CONCURRENCY = 16;

/**
 * The claimers in AWS, one invocation per shard: the minute tick starts them asynchronously (Lambda
 * retries a failed one; its shard stays due), an admin's run invokes them synchronously and waits.
 */
export function createLambdaClaimers(client: LambdaClient, functionName: () => string): DueClaimers {
  return {
    async start(requests) {
      const started = await mapWithConcurrency(requests, START_CONCURRENCY, async (request) => {
        try {
          await startFunction(client, functionName(), request);
          return true;
        } catch {
          return false;
        }
      });
      return { failed: requests.filter((_, index) => !started[index]).map((request) => request.shard) };
    },
    async claim(request) {
      try {
        const { FunctionError, Payload } = await client.send(
          new InvokeCommand({
            FunctionName: functionName(),
            InvocationType: 'RequestResponse',
            Payload: new TextEncoder().encode(JSON.stringify(request)),
          }),
        );
        // A handler that threw answers 200 with `FunctionError` and the error as its payload.
        if (FunctionError || !Payload) return null;
        const answer = ShardClaimAnswer.safeParse(JSON.parse(new TextDecoder().decode(Payload)));
        return answer.success ? answer.data : null;
      } catch {
        return null;
      }
    },
  };
}
