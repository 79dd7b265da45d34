import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { CloudFormationCustomResourceDeleteEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import {
  generateServerKey,
  generateStoredAppKeys,
  parseAppKeys,
  parseServerKey,
} from '../../functions/security/app-keys';
import { createLicenseKeyVault } from '../../functions/security/license-key-vault';
import { ensureServerKeys, handler, type KeysSecret } from '../../lib/constructs/app-keys-handler';

/** An in-memory secret that records every write. */
function memorySecret(initial: string | undefined): KeysSecret & { readonly writes: string[] } {
  let value = initial;
  const writes: string[] = [];
  return {
    writes,
    read: async () => value,
    write: async (next) => {
      writes.push(next);
      value = next;
    },
  };
}

/** Three empty key secrets, as CloudFormation creates them (its placeholder password in each). */
function keySecrets() {
  return {
    sessionSigning: memorySecret('Xq8#placeholder-password-32chars'),
    licenseHash: memorySecret('Yq8#placeholder-password-32chars'),
    licenseEncryption: memorySecret(undefined),
  };
}

describe('ensureServerKeys', () => {
  it('generates three distinct 32-byte keys on a fresh deployment (the old secret holds a placeholder)', async () => {
    const secrets = keySecrets();

    const origins = await ensureServerKeys(secrets, memorySecret('Zq8#placeholder-password-32chars'));

    expect(origins).toEqual({
      sessionSigning: 'generated',
      licenseHash: 'generated',
      licenseEncryption: 'generated',
    });
    const keys = Object.values(secrets).map((secret) => parseServerKey(secret.writes[0]!));
    expect(keys.map((key) => key.length)).toEqual([32, 32, 32]);
    expect(new Set(keys.map((key) => Buffer.from(key).toString('hex'))).size).toBe(3);
  });

  it('migrates each key from the combined secret of an earlier deployment, unchanged', async () => {
    const stored = generateStoredAppKeys();
    const secrets = keySecrets();
    const legacy = memorySecret(JSON.stringify(stored));

    const origins = await ensureServerKeys(secrets, legacy);

    expect(origins).toEqual({
      sessionSigning: 'migrated',
      licenseHash: 'migrated',
      licenseEncryption: 'migrated',
    });
    expect(secrets.sessionSigning.writes).toEqual([stored.sessionSigningKey]);
    expect(secrets.licenseHash.writes).toEqual([stored.licenseHashKey]);
    expect(secrets.licenseEncryption.writes).toEqual([stored.licenseEncryptionKey]);
    expect(legacy.writes).toEqual([]);
    // Every stored hash and cipher still matches: the vault over the split keys is the old one.
    const before = createLicenseKeyVault(parseAppKeys(JSON.stringify(stored)));
    const after = createLicenseKeyVault({
      licenseHashKey: parseServerKey(secrets.licenseHash.writes[0]!),
      licenseEncryptionKey: parseServerKey(secrets.licenseEncryption.writes[0]!),
    });
    expect(after.hash('NOTARY-ABCD2345')).toBe(before.hash('NOTARY-ABCD2345'));
    expect(after.decrypt(before.encrypt('NOTARY-ABCD2345'))).toBe('NOTARY-ABCD2345');
  });

  it('never rewrites a key that is already valid, even if the combined secret differs', async () => {
    const current = generateServerKey();
    const secrets = { ...keySecrets(), licenseHash: memorySecret(current) };

    const origins = await ensureServerKeys(secrets, memorySecret(JSON.stringify(generateStoredAppKeys())));

    expect(origins.licenseHash).toBe('kept');
    expect(secrets.licenseHash.writes).toEqual([]);
  });

  it('generates keys without a combined secret at all', async () => {
    const secrets = keySecrets();

    await ensureServerKeys(secrets, undefined);

    for (const secret of Object.values(secrets))
      expect(() => parseServerKey(secret.writes[0]!)).not.toThrow();
  });
});

describe('handler', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  });

  it('answers a Delete with SUCCESS to the response URL, keeping its physical id, without touching the secret', async () => {
    const received: { method?: string; body: string }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push({ method: request.method, body });
        response.end();
      });
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as AddressInfo;
    const event: CloudFormationCustomResourceDeleteEvent = {
      RequestType: 'Delete',
      ServiceToken: 'arn:aws:lambda:eu-west-3:123456789012:function:generator',
      ResponseURL: `http://127.0.0.1:${port}/response`,
      StackId: 'arn:aws:cloudformation:eu-west-3:123456789012:stack/AssistantJuridique/1',
      RequestId: 'request-1',
      LogicalResourceId: 'AppKeys',
      PhysicalResourceId: 'arn:aws:secretsmanager:eu-west-3:123456789012:secret:keys-AbCdEf',
      ResourceType: 'Custom::AppKeys',
      ResourceProperties: {
        ServiceToken: 'arn:aws:lambda:eu-west-3:123456789012:function:generator',
        LicenseHashKey: 'arn:aws:secretsmanager:eu-west-3:123456789012:secret:keys-AbCdEf',
      },
    };

    await handler(event);

    expect(received).toHaveLength(1);
    expect(received[0]?.method).toBe('PUT');
    expect(JSON.parse(received[0]!.body)).toEqual({
      Status: 'SUCCESS',
      PhysicalResourceId: event.PhysicalResourceId,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
    });
  });
});
