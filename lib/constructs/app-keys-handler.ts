import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

import type { ServerKeyName } from '../../functions/needs';
import {
  type AppKeys,
  generateServerKey,
  parseAppKeys,
  parseServerKey,
} from '../../functions/security/app-keys';
import { replyToCloudFormation } from './custom-resource-reply';

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
 * Fills each key's secret once and never replaces a valid key (stored hashes and ciphers depend
 * on it): copied from a pre-split combined secret when given, else generated. Returns origins only.
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
 * `Custom::AppKeys`: on Create and Update fills each key's secret unless it already holds a valid
 * key, migrating from `LegacySecretId` when given; on Delete nothing (the secrets are retained).
 */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const properties = event.ResourceProperties as Record<string, unknown>;
  const physicalResourceId =
    event.RequestType === 'Create' ? String(properties.LicenseHashKey) : event.PhysicalResourceId;
  await replyToCloudFormation(event, physicalResourceId, async () => {
    if (event.RequestType === 'Delete') return;
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
  });
}
