import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { WebhookSigningError } from '../../../functions/adapters/scheduling/webhook-signature';
import { webhookSecretOf } from '../../../functions/runtime/scheduling-ports';
import { loadOrCreateWebhookSecret } from '../../../lib/local/queue/local-scheduling';

describe('webhookSecretOf', () => {
  const base64 = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=';

  it('keeps a whsec_ secret as it is', () => {
    expect(webhookSecretOf(`whsec_${base64}\n`)).toBe(`whsec_${base64}`);
  });

  it('prefixes a secret stored as its base64 part (as Secrets Manager generates it)', () => {
    expect(webhookSecretOf(base64)).toBe(`whsec_${base64}`);
  });

  it('refuses a secret that cannot sign', () => {
    expect(() => webhookSecretOf('whsec_abc')).toThrow(WebhookSigningError);
  });
});

describe('loadOrCreateWebhookSecret', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('generates a secret readable by its owner only, then keeps it', () => {
    const directory = mkdtempSync(join(tmpdir(), 'webhook-secret-'));
    directories.push(directory);
    const path = join(directory, 'webhook-secret');

    const first = loadOrCreateWebhookSecret(path);
    const second = loadOrCreateWebhookSecret(path);

    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(second).toBe(first);
    expect(readFileSync(path, 'utf8').trim()).toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
