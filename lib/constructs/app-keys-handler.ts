import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';

import type { ServerKeyName } from '../../functions/needs';
import {
  type AppKeys,
  generateServerKey,
  parseAppKeys,
  parseServerKey,
} from '../../functions/security/app-keys';

/** A secret's value as the custom resource sees it: read the current one, write a new one. */
export interface KeysSecret {
  read(): Promise<string | undefined>;
  write(value: string): Promise<void>;
}

const FIELDS = {
  sessionSigning: 'sessionSigningKey',
  licenseHash: 'licenseHashKey',
  licenseEncryption: 'licenseEncryptionKey',
} as const satisfies Record<ServerKeyName, keyof AppKeys>;

/** Where each key comes from when its own secret did not hold it yet. */
export type KeyOrigin = 'kept' | 'migrated' | 'generated';

/**
 * Makes sure each key's own secret holds a valid key. A valid key is never replaced: the
 * licence-key hashes in the table are computed with the hash key, the stored copies encrypted
 * with the encryption key, so new keys would lock every licence out. A key whose secret does not
 * hold one yet is copied from the combined secret of earlier deployments when that holds valid
 * keys (the migration: every stored hash and cipher still matches, every session stays signed
 * in), else generated. Returns where each key came from (never a key).
 */
export async function ensureServerKeys(
  secrets: Readonly<Record<ServerKeyName, KeysSecret>>,
  legacy: KeysSecret | undefined,
): Promise<Record<ServerKeyName, KeyOrigin>> {
  const legacyKeys = legacy ? parseOrUndefined(await legacy.read(), parseAppKeys) : undefined;
  const origins = {} as Record<ServerKeyName, KeyOrigin>;
  for (const name of Object.keys(FIELDS) as ServerKeyName[]) {
    const secret = secrets[name];
    if (parseOrUndefined(await secret.read(), parseServerKey)) {
      origins[name] = 'kept';
      continue;
    }
    const inherited = legacyKeys?.[FIELDS[name]];
    await secret.write(inherited ? Buffer.from(inherited).toString('base64') : generateServerKey());
    origins[name] = inherited ? 'migrated' : 'generated';
  }
  return origins;
}

function parseOrUndefined<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  if (value === undefined) return undefined;
  try {
    return parse(value);
  } catch {
    return undefined;
  }
}

/** Secrets Manager behind `KeysSecret`; a secret that does not exist reads as nothing. */
export function secretsManagerKeysSecret(
  secretId: string,
  client = new SecretsManagerClient({}),
): KeysSecret {
  return {
    read: async () => {
      try {
        return (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return undefined;
        throw error;
      }
    },
    write: async (value) => {
      await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: value }));
    },
  };
}

/**
 * The CloudFormation custom resource `Custom::AppKeys`: on Create and Update it fills each key's
 * secret (properties `SessionSigningKey`, `LicenseHashKey`, `LicenseEncryptionKey`, secret ARNs)
 * unless it already holds a valid key, migrating from the combined secret `LegacySecretId` when
 * that holds valid keys; on Delete it does nothing (the secrets are retained). Invoked by
 * CloudFormation directly (no provider framework), so it reports to the pre-signed URL itself.
 */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const properties = event.ResourceProperties as Record<string, unknown>;
  const physicalResourceId =
    event.RequestType === 'Create' ? String(properties.LicenseHashKey) : event.PhysicalResourceId;
  let response: CloudFormationCustomResourceResponse;
  try {
    if (event.RequestType !== 'Delete') {
      const client = new SecretsManagerClient({});
      const secret = (name: string) => secretsManagerKeysSecret(String(properties[name]), client);
      const origins = await ensureServerKeys(
        {
          sessionSigning: secret('SessionSigningKey'),
          licenseHash: secret('LicenseHashKey'),
          licenseEncryption: secret('LicenseEncryptionKey'),
        },
        properties.LegacySecretId ? secret('LegacySecretId') : undefined,
      );
      console.log(JSON.stringify({ requestType: event.RequestType, keys: origins }));
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
