import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { newWebhookSecret } from './stripe/stand-in';

/** Where, under the data directory, the stand-in's webhook signing secret is kept. */
export const STAND_IN_WEBHOOK_SECRET_FILE = 'stripe-webhook-secret.txt';

/**
 * The stand-in's webhook signing secret, kept in a 0600 file so a tester can sign his own events;
 * never printed.
 */
export function loadOrCreateStandInWebhookSecret(path: string): string {
  if (!existsSync(path)) writeFileSync(path, `${newWebhookSecret()}\n`, { mode: 0o600, flag: 'wx' });
  const secret = readFileSync(path, 'utf8').trim();
  if (!/^whsec_\w+$/.test(secret)) throw new Error(`Secret de webhook Stripe illisible dans ${path}`);
  return secret;
}
