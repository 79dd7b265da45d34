import type { LambdaClient } from '@aws-sdk/client-lambda';

import type { PortalLinkQueue } from '../../domain/billing/portal-link';
import { startFunction } from '../core/lambda-invoke';

/**
 * Portal-link requests in AWS: one asynchronous invocation of the sender function each
 * (`InvocationType: 'Event'`), accepted by Lambda before request-portal-link replies; Lambda
 * retries a failed one twice, then keeps it in the sender's on-failure queue.
 */
export function createLambdaPortalLinks(client: LambdaClient, functionName: () => string): PortalLinkQueue {
  return {
    async send(email) {
      await startFunction(client, functionName(), { email });
    },
  };
}
