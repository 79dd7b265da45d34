import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookSigningError,
  webhookSigningKey,
} from '../../../../functions/adapters/scheduling/webhook-signature';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const AT_SIGNING = new Date(TIMESTAMP * 1000);

/** The receiver's side, written from the published algorithm without our code. */
function independentSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference test vector', () => {
    const headers = signWebhook(SECRET, ID, TIMESTAMP, BODY);

    expect(headers).toEqual({
      'webhook-id': ID,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('agrees with an independent computation on a generated secret and a French body', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({
      trigger: 'scheduled',
      workflow: 'Relance Dossier Client',
      note: 'échéance',
    });

    const headers = signWebhook(secret, 'run_42', 1_700_000_000, Buffer.from(body, 'utf8'));

    expect(headers['webhook-signature']).toBe(independentSignature(secret, 'run_42', 1_700_000_000, body));
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const first = generateWebhookSecret();
    const second = generateWebhookSecret();

    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSigningKey(first)).toHaveLength(32);
    expect(first).not.toBe(second);
  });

  it('accepts the secret without its prefix, as the reference libraries do', () => {
    const withoutPrefix = signWebhook(SECRET.slice('whsec_'.length), ID, TIMESTAMP, BODY);

    expect(withoutPrefix).toEqual(signWebhook(SECRET, ID, TIMESTAMP, BODY));
  });

  it.each([
    ['an empty secret', 'whsec_'],
    ['a secret that is not base64', 'whsec_not base64!'],
    ['a secret of 16 bytes', `whsec_${Buffer.alloc(16, 1).toString('base64')}`],
  ])('refuses %s', (_what, secret) => {
    expect(() => signWebhook(secret, ID, TIMESTAMP, BODY)).toThrow(WebhookSigningError);
  });

  it.each([
    ['an empty id', '', TIMESTAMP],
    ['an id with a space', 'msg 1', TIMESTAMP],
    ['an id with a comma', 'msg,1', TIMESTAMP],
    ['an id with a line break', 'msg\r\nx-injected: 1', TIMESTAMP],
    ['a timestamp in milliseconds with a fraction', ID, 1614265330.5],
    ['a negative timestamp', ID, -1],
  ])('refuses %s', (_what, id, timestamp) => {
    expect(() => signWebhook(SECRET, id, timestamp, BODY)).toThrow(WebhookSigningError);
  });
});

describe('verifyWebhook', () => {
  const signed = signWebhook(SECRET, ID, TIMESTAMP, BODY);

  it('accepts a call signed with the secret, within the tolerance', () => {
    const result = verifyWebhook(SECRET, signed, BODY, { now: AT_SIGNING });

    expect(result).toEqual({ valid: true, id: ID, timestamp: TIMESTAMP });
  });

  it('accepts the body as the raw bytes and header names in any case', () => {
    const headers = {
      'Webhook-Id': signed['webhook-id'],
      'WEBHOOK-TIMESTAMP': signed['webhook-timestamp'],
      'webhook-signature': [signed['webhook-signature']],
    };

    const result = verifyWebhook(SECRET, headers, Buffer.from(BODY), { now: AT_SIGNING });

    expect(result.valid).toBe(true);
  });

  it('refuses a tampered body', () => {
    const result = verifyWebhook(SECRET, signed, '{"test": 2432232315}', { now: AT_SIGNING });

    expect(result).toEqual({ valid: false, reason: 'no-matching-signature' });
  });

  it('refuses a tampered id or timestamp', () => {
    const otherId = verifyWebhook(SECRET, { ...signed, 'webhook-id': 'msg_other' }, BODY, {
      now: AT_SIGNING,
    });
    const otherTime = verifyWebhook(SECRET, { ...signed, 'webhook-timestamp': String(TIMESTAMP + 1) }, BODY, {
      now: AT_SIGNING,
    });

    expect([otherId.valid, otherTime.valid]).toEqual([false, false]);
  });

  it('refuses a call signed with another secret', () => {
    const result = verifyWebhook(generateWebhookSecret(), signed, BODY, { now: AT_SIGNING });

    expect(result).toEqual({ valid: false, reason: 'no-matching-signature' });
  });

  it.each([
    ['older', 301],
    ['newer', -301],
  ])('refuses a timestamp %s than the tolerance', (_what, secondsSinceSigning) => {
    const now = new Date((TIMESTAMP + secondsSinceSigning) * 1000);

    const result = verifyWebhook(SECRET, signed, BODY, { now });

    expect(result).toEqual({ valid: false, reason: 'stale-timestamp' });
  });

  it('accepts a timestamp right at the tolerance and honours a custom one', () => {
    const atEdge = verifyWebhook(SECRET, signed, BODY, { now: new Date((TIMESTAMP + 300) * 1000) });
    const strict = verifyWebhook(SECRET, signed, BODY, {
      now: new Date((TIMESTAMP + 31) * 1000),
      toleranceSeconds: 30,
    });

    expect([atEdge.valid, strict.valid]).toEqual([true, false]);
  });

  it('accepts a list of space-separated signatures when one of them matches', () => {
    const headers = {
      ...signed,
      'webhook-signature': [
        'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
        'v1a,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
        signed['webhook-signature'],
      ].join(' '),
    };

    expect(verifyWebhook(SECRET, headers, BODY, { now: AT_SIGNING }).valid).toBe(true);
  });

  it.each([
    ['another version', 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
    ['a truncated signature', 'v1,g0hM9SsE+OTPJTGt'],
    ['an empty signature', 'v1,'],
    ['no version', 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
  ])('refuses %s', (_what, signature) => {
    const result = verifyWebhook(SECRET, { ...signed, 'webhook-signature': signature }, BODY, {
      now: AT_SIGNING,
    });

    expect(result).toEqual({ valid: false, reason: 'no-matching-signature' });
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)(
    'refuses a call without %s',
    (name) => {
      const headers: Record<string, string> = { ...signed };
      delete headers[name];

      expect(verifyWebhook(SECRET, headers, BODY, { now: AT_SIGNING })).toEqual({
        valid: false,
        reason: 'missing-headers',
      });
    },
  );

  it.each(['hello', '1614265330.0', '-1614265330'])('refuses the timestamp %j', (timestamp) => {
    const result = verifyWebhook(SECRET, { ...signed, 'webhook-timestamp': timestamp }, BODY, {
      now: AT_SIGNING,
    });

    expect(result).toEqual({ valid: false, reason: 'invalid-timestamp' });
  });
});
