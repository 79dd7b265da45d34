import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

import type { PortalLinkQueue } from '../../domain/billing/portal-link';

/**
 * Portal-link requests in AWS: one asynchronous invocation of the sender function each
 * (`InvocationType: 'Event'`), accepted by Lambda before request-portal-link replies; Lambda
 * retries a failed one twice, then keeps it in the sender's on-failure queue.
 */
export function createLambdaPortalLinks(client: LambdaClient, functionName: () => string): PortalLinkQueue {
  return {
    async send(email) {
      const { StatusCode } = await client.send(
        new InvokeCommand({
          FunctionName: functionName(),
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify({ email })),
        }),
      );
      if (StatusCode !== 202) throw new Error(`Envoi du lien du portail refusé par Lambda (${StatusCode})`);
    },
  };
}
