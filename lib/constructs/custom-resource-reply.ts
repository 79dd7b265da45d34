import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';

/**
 * Runs a custom resource's work and reports to CloudFormation's pre-signed URL itself (the
 * functions are invoked directly, without CDK's provider framework). A failure's reason names the
 * error only: none of our handlers' messages can carry a secret.
 */
export async function replyToCloudFormation(
  event: CloudFormationCustomResourceEvent,
  physicalResourceId: string,
  work: () => Promise<void>,
): Promise<void> {
  const base = {
    PhysicalResourceId: physicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
  let response: CloudFormationCustomResourceResponse;
  try {
    await work();
    response = { ...base, Status: 'SUCCESS' };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'Erreur inconnue';
    console.error(JSON.stringify({ requestType: event.RequestType, error: reason }));
    response = { ...base, Status: 'FAILED', Reason: reason };
  }
  const reply = await fetch(event.ResponseURL, {
    method: 'PUT',
    // The pre-signed URL is signed without a content type; send none.
    headers: { 'content-type': '' },
    body: JSON.stringify(response),
  });
  if (!reply.ok) throw new Error(`CloudFormation response refused: HTTP ${reply.status}`);
}
