import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { newWebhookSecret } from './stripe/stand-in';

/** Where, under the data directory, the stand-in's webhook signing secret is kept. */
export const STAND_IN_WEBHOOK_SECRET_FILE = 'stripe-webhook-secret.txt';

/**
 * The signing secret of the local Stripe stand-in's webhook events: generated on first start into
 * a file readable by its owner only (0600), then read back on every start, so that a tester can
 * sign his own events with the Stripe SDK (`stripe.webhooks.generateTestHeaderString`) and post
 * them to /api/stripe-webhook. It is never printed.
 */
export function loadOrCreateStandInWebhookSecret(path: string): string {
  if (!existsSync(path)) writeFileSync(path, `${newWebhookSecret()}\n`, { mode: 0o600, flag: 'wx' });
  const secret = readFileSync(path, 'utf8').trim();
  if (!/^whsec_\w+$/.test(secret)) throw new Error(`Secret de webhook Stripe illisible dans ${path}`);
  return secret;
}
