import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed webhook calls, as the Standard Webhooks specification (https://www.standardwebhooks.com)
 * defines them: `webhook-signature` carries `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`))
 * where the key is the base64 part of a `whsec_…` secret. docs/webhook-signature.md shows how an
 * n8n workflow checks it.
 */

/** The three headers of a signed call (a type, not an interface, so that it is a header record). */
export type WebhookSignatureHeaders = {
  readonly 'webhook-id': string;
  /** Unix time in seconds. */
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

/** Headers as Node gives them (lower-case names) or as a plain record; names match in any case. */
export type IncomingHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way. @default 300 (five minutes, as the standard) */
  readonly toleranceSeconds?: number;
  /** @default the current time */
  readonly now?: Date;
}

export type WebhookVerification =
  | { readonly valid: true; readonly id: string; readonly timestamp: number }
  | {
      readonly valid: false;
      readonly reason: 'missing-headers' | 'invalid-timestamp' | 'stale-timestamp' | 'no-matching-signature';
    };

const SECRET_PREFIX = 'whsec_';
/** The standard recommends keys of 24 to 64 bytes; a shorter one is a configuration error. */
const MIN_KEY_BYTES = 24;
const GENERATED_KEY_BYTES = 32;
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
/** Header-safe and unambiguous: visible ASCII, no spaces or commas. */
const MESSAGE_ID = /^[\x21-\x2b\x2d-\x7e]{1,256}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A configuration error: the secret or an argument cannot sign anything. */
export class WebhookSigningError extends Error {
  override name = 'WebhookSigningError';
}

/** A new per-deployment secret, `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(GENERATED_KEY_BYTES).toString('base64')}`;
}

/** The HMAC key of a `whsec_…` secret (the prefix is optional, as in the reference libraries). */
export function webhookSigningKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) {
    throw new WebhookSigningError('The webhook secret must be whsec_ followed by base64');
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_KEY_BYTES) {
    throw new WebhookSigningError(`The webhook secret must hold at least ${MIN_KEY_BYTES} bytes`);
  }
  return key;
}

/**
 * The headers that sign one call. `id` stays the same across the retries of one due run so that the
 * receiver can drop duplicates; `timestamp` is the time of this attempt in unix seconds; `body` is
 * exactly the bytes sent.
 */
export function signWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string | Buffer,
): WebhookSignatureHeaders {
  if (!MESSAGE_ID.test(id))
    throw new WebhookSigningError('The webhook id must be 1 to 256 visible characters');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new WebhookSigningError('The webhook timestamp must be whole unix seconds');
  }
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signatureOf(webhookSigningKey(secret), id, timestamp, body)}`,
  };
}

/**
 * Checks a received call: headers present, timestamp within the tolerance, and one of the
 * space-separated `v1,` signatures equal (in constant time) to the expected one.
 */
export function verifyWebhook(
  secret: string,
  headers: IncomingHeaders,
  body: string | Buffer,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() }: VerifyWebhookOptions = {},
): WebhookVerification {
  const key = webhookSigningKey(secret);
  const id = headerOf(headers, 'webhook-id');
  const timestampText = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures) return { valid: false, reason: 'missing-headers' };
  if (!/^\d{1,15}$/.test(timestampText)) return { valid: false, reason: 'invalid-timestamp' };
  const timestamp = Number(timestampText);
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) {
    return { valid: false, reason: 'stale-timestamp' };
  }
  const expected = Buffer.from(signatureOf(key, id, timestamp, body), 'base64');
  const matches = signatures.split(' ').some((versioned) => {
    const [version, signature] = versioned.split(',', 2);
    if (version !== 'v1' || signature === undefined || !BASE64.test(signature)) return false;
    const received = Buffer.from(signature, 'base64');
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
  return matches ? { valid: true, id, timestamp } : { valid: false, reason: 'no-matching-signature' };
}

function signatureOf(key: Buffer, id: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

function headerOf(headers: IncomingHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return typeof value === 'string' ? value : value?.[0];
  }
  return undefined;
}
