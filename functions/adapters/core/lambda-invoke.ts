import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

/**
 * Starts a function without waiting for it (`InvocationType: 'Event'`): Lambda queues the event and
 * retries a failed run itself. Throws when the send fails or Lambda does not accept the event (202).
 */
export async function startFunction(
  client: LambdaClient,
  functionName: string,
  payload: unknown,
): Promise<void> {
  const { StatusCode } = await client.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: new TextEncoder().encode(JSON.stringify(payload)),
    }),
  );
  if (StatusCode !== 202)
    throw new Error(`Lambda n'a pas accepté le lancement de ${functionName} (${StatusCode})`);
}
