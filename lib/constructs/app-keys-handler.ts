import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';

import { generateStoredAppKeys, parseAppKeys } from '../../functions/security/app-keys';

/** The secret's value as the custom resource sees it: read the current one, write a new one. */
export interface KeysSecret {
  read(): Promise<string | undefined>;
  write(value: string): Promise<void>;
}

/**
 * Makes sure the secret holds a valid set of server keys, generating one only when it does not.
 * Keys are never replaced: the licence-key hashes in the table are computed with
 * `licenseHashKey`, so new keys would lock every licence out. Returns whether keys were written.
 */
export async function ensureAppKeys(secret: KeysSecret): Promise<boolean> {
  const current = await secret.read();
  if (current !== undefined && holdsAppKeys(current)) return false;
  await secret.write(JSON.stringify(generateStoredAppKeys()));
  return true;
}

function holdsAppKeys(value: string): boolean {
  try {
    parseAppKeys(value);
    return true;
  } catch {
    return false;
  }
}

/** Secrets Manager behind `KeysSecret`. */
export function secretsManagerKeysSecret(
  secretId: string,
  client = new SecretsManagerClient({}),
): KeysSecret {
  return {
    read: async () => (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString,
    write: async (value) => {
      await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: value }));
    },
  };
}

/**
 * The CloudFormation custom resource `Custom::AppKeys`: on Create and Update it fills the secret
 * named by the `SecretId` property with generated keys unless it already holds valid ones; on
 * Delete it does nothing (the secret is retained). Invoked by CloudFormation directly (no
 * provider framework), so it reports to the pre-signed response URL itself.
 */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const secretId = String(event.ResourceProperties.SecretId);
  const physicalResourceId = event.RequestType === 'Create' ? secretId : event.PhysicalResourceId;
  let response: CloudFormationCustomResourceResponse;
  try {
    if (event.RequestType !== 'Delete') {
      const written = await ensureAppKeys(secretsManagerKeysSecret(secretId));
      console.log(JSON.stringify({ requestType: event.RequestType, keysGenerated: written }));
    }
    response = { ...responseBase(event, physicalResourceId), Status: 'SUCCESS' };
  } catch (error) {
    // The reason is shown in the CloudFormation console: the error's name and message only,
    // never a secret value (none of the messages above can contain one).
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'Erreur inconnue';
    console.error(JSON.stringify({ requestType: event.RequestType, error: reason }));
    response = { ...responseBase(event, physicalResourceId), Status: 'FAILED', Reason: reason };
  }
  const reply = await fetch(event.ResponseURL, {
    method: 'PUT',
    // The pre-signed URL is signed without a content type; send none.
    headers: { 'content-type': '' },
    body: JSON.stringify(response),
  });
  if (!reply.ok) throw new Error(`CloudFormation response refused: HTTP ${reply.status}`);
}

function responseBase(event: CloudFormationCustomResourceEvent, physicalResourceId: string) {
  return {
    PhysicalResourceId: physicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  };
}
