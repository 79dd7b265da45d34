import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';

import { cachedSecret } from '../../functions/runtime/cached-secret';

/** A Secrets Manager stand-in answering from a script: a value, or a failure to inject. */
function scriptedSecrets(...answers: (string | Error)[]) {
  const calls: unknown[] = [];
  const client = {
    send: async (command: { input: unknown }) => {
      calls.push(command.input);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return { SecretString: answer };
    },
  } as unknown as SecretsManagerClient;
  return { client, calls };
}

describe('cachedSecret', () => {
  it('reads the secret once, on first use, and parses it', async () => {
    const { client, calls } = scriptedSecrets('{"key":"valeur"}');
    const secret = cachedSecret(
      client,
      () => 'arn:secret',
      (value) => JSON.parse(value) as { key: string },
    );
    expect(calls).toHaveLength(0);

    const [first, second] = await Promise.all([secret(), secret()]);

    expect(first).toEqual({ key: 'valeur' });
    expect(second).toBe(first);
    expect(calls).toEqual([{ SecretId: 'arn:secret' }]);
  });

  it('tries again on the next call after a failed read', async () => {
    const { client, calls } = scriptedSecrets(new Error('ThrottlingException'), 'whsec_abc');
    const secret = cachedSecret(
      client,
      () => 'arn:secret',
      (value) => value,
    );

    await expect(secret()).rejects.toThrow('ThrottlingException');
    await expect(secret()).resolves.toBe('whsec_abc');
    expect(calls).toHaveLength(2);
  });

  it('refuses an empty secret', async () => {
    const { client } = scriptedSecrets('');
    await expect(
      cachedSecret(
        client,
        () => 'arn:secret',
        (value) => value,
      )(),
    ).rejects.toThrow('Secret vide');
  });
});
