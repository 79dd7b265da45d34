import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { CloudFormationCustomResourceDeleteEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { generateStoredAppKeys, parseAppKeys } from '../../functions/security/app-keys';
import { ensureAppKeys, handler, type KeysSecret } from '../../lib/constructs/app-keys-handler';

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

describe('ensureAppKeys', () => {
  it('replaces the placeholder password Secrets Manager creates with three 32-byte keys', async () => {
    const secret = memorySecret('Xq8#placeholder-password-32chars');

    const written = await ensureAppKeys(secret);

    expect(written).toBe(true);
    expect(secret.writes).toHaveLength(1);
    const keys = parseAppKeys(secret.writes[0]!);
    expect(
      [keys.sessionSigningKey, keys.licenseHashKey, keys.licenseEncryptionKey].map((k) => k.length),
    ).toEqual([32, 32, 32]);
    expect(new Set(Object.values(JSON.parse(secret.writes[0]!) as Record<string, string>)).size).toBe(3);
  });

  it('never rewrites keys that are already valid', async () => {
    const stored = JSON.stringify(generateStoredAppKeys());
    const secret = memorySecret(stored);

    const written = await ensureAppKeys(secret);

    expect(written).toBe(false);
    expect(secret.writes).toEqual([]);
  });

  it('writes keys into an empty secret', async () => {
    const secret = memorySecret(undefined);

    await ensureAppKeys(secret);

    expect(() => parseAppKeys(secret.writes[0]!)).not.toThrow();
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
        SecretId: 'arn:aws:secretsmanager:eu-west-3:123456789012:secret:keys-AbCdEf',
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
