import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { SecretsManagerLawyerSecretStore } from '../../../../functions/adapters/directory/secrets-manager-store';
import { FileLawyerSecretStore } from '../../../../lib/local/file-secret-store';
import type { LawyerSecrets } from '../../../../shared/schemas/lawyer';

const SECRETS: LawyerSecrets = {
  googlePassword: 'mot-de-passe',
  googleCredentials: { clientId: 'client', clientSecret: 'secret', redirectUri: 'https://example.com/oauth' },
};

describe('FileLawyerSecretStore (local runtime)', () => {
  let directory: string;
  let path: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'lawyer-secrets-'));
    path = join(directory, 'lawyer-secrets.json');
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('writes, reads and deletes the secrets of a lawyer, kept across instances', async () => {
    const id = randomUUID();
    await new FileLawyerSecretStore(path).put(id, SECRETS);

    const reopened = new FileLawyerSecretStore(path);
    expect(await reopened.get(id)).toEqual(SECRETS);
    await reopened.delete(id);
    expect(await new FileLawyerSecretStore(path).get(id)).toBeNull();
  });

  it('keeps the file readable by its owner only and leaves no temporary file behind', async () => {
    await new FileLawyerSecretStore(path).put(randomUUID(), SECRETS);

    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(directory)).toEqual(['lawyer-secrets.json']);
  });

  it('loses no write when several saves arrive at once', async () => {
    const store = new FileLawyerSecretStore(path);
    const ids = Array.from({ length: 20 }, () => randomUUID());

    await Promise.all(ids.map((id) => store.put(id, SECRETS)));

    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual([...ids].sort());
  });

  it('answers null for a lawyer without secrets, and deleting nothing is no error', async () => {
    const store = new FileLawyerSecretStore(path);

    expect(await store.get(randomUUID())).toBeNull();
    await expect(store.delete(randomUUID())).resolves.toBeUndefined();
  });
});

/** A Secrets Manager client that records the commands it is sent and answers from a script. */
function fakeClient(answer: (name: string, input: Record<string, unknown>) => unknown = () => ({})) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      sent.push({ name, input: command.input });
      return answer(name, command.input);
    },
  } as unknown as SecretsManagerClient;
  return { client, sent };
}

const failure = (name: string) => Object.assign(new Error(name), { name });

describe('SecretsManagerLawyerSecretStore (AWS)', () => {
  const id = randomUUID();
  const prefix = () => 'assistant-juridique/lawyers/';

  it('replaces the value of an existing secret named after the prefix and the lawyer id', async () => {
    const { client, sent } = fakeClient();

    await new SecretsManagerLawyerSecretStore(client, prefix).put(id, SECRETS);

    expect(sent).toEqual([
      {
        name: 'PutSecretValueCommand',
        input: { SecretId: `assistant-juridique/lawyers/${id}`, SecretString: JSON.stringify(SECRETS) },
      },
    ]);
  });

  it("creates the lawyer's secret the first time", async () => {
    const { client, sent } = fakeClient((name) => {
      if (name === 'PutSecretValueCommand') throw failure('ResourceNotFoundException');
      return {};
    });

    await new SecretsManagerLawyerSecretStore(client, prefix).put(id, SECRETS);

    expect(sent.map((command) => command.name)).toEqual(['PutSecretValueCommand', 'CreateSecretCommand']);
    expect(sent[1]?.input).toMatchObject({
      Name: `assistant-juridique/lawyers/${id}`,
      SecretString: JSON.stringify(SECRETS),
    });
  });

  it('reads the secrets back, and null when the lawyer has none', async () => {
    const stored = fakeClient(() => ({ SecretString: JSON.stringify(SECRETS) }));
    const missing = fakeClient(() => {
      throw failure('ResourceNotFoundException');
    });

    expect(await new SecretsManagerLawyerSecretStore(stored.client, prefix).get(id)).toEqual(SECRETS);
    expect(await new SecretsManagerLawyerSecretStore(missing.client, prefix).get(id)).toBeNull();
  });

  it('deletes at once, without a recovery window, and deleting nothing is no error', async () => {
    const { client, sent } = fakeClient(() => {
      throw failure('ResourceNotFoundException');
    });

    await new SecretsManagerLawyerSecretStore(client, prefix).delete(id);

    expect(sent).toEqual([
      {
        name: 'DeleteSecretCommand',
        input: { SecretId: `assistant-juridique/lawyers/${id}`, ForceDeleteWithoutRecovery: true },
      },
    ]);
  });

  it('never builds a secret name from anything but a lawyer id', async () => {
    const { client, sent } = fakeClient();

    await expect(new SecretsManagerLawyerSecretStore(client, prefix).get('../../app-keys')).rejects.toThrow();
    expect(sent).toEqual([]);
  });

  it('reads its prefix on first use only, so functions without secrets need no prefix', async () => {
    const { client } = fakeClient();
    let reads = 0;

    const store = new SecretsManagerLawyerSecretStore(client, () => {
      reads++;
      return 'prefix/';
    });
    expect(reads).toBe(0);
    await store.delete(id);

    expect(reads).toBe(1);
  });

  it('lets any other failure through', async () => {
    const { client } = fakeClient(() => {
      throw failure('AccessDeniedException');
    });

    await expect(new SecretsManagerLawyerSecretStore(client, prefix).get(id)).rejects.toThrow(
      'AccessDeniedException',
    );
  });
});
