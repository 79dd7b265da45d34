import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { StripePayments } from '../../../../functions/adapters/billing/stripe-payments';
import {
  loadOrCreateStandInWebhookSecret,
  STAND_IN_WEBHOOK_SECRET_FILE,
} from '../../../../lib/local/stand-in-webhook-secret';

/** Issue 14 §10: a tester finds the stand-in's webhook secret under DATA_DIR and signs with it. */
describe("the stand-in's webhook signing secret", () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'stand-in-secret-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('is written once under the data directory, readable by its owner only, and kept', () => {
    const path = join(directory, STAND_IN_WEBHOOK_SECRET_FILE);

    const first = loadOrCreateStandInWebhookSecret(path);
    const again = loadOrCreateStandInWebhookSecret(path);

    expect(first).toMatch(/^whsec_\w+$/);
    expect(again).toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('signs, with the Stripe SDK, an event the webhook verification accepts', () => {
    const secret = loadOrCreateStandInWebhookSecret(join(directory, STAND_IN_WEBHOOK_SECRET_FILE));
    const payload = JSON.stringify({
      id: 'evt_signe_par_un_testeur',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { object: 'subscription', id: 'sub_123' } },
    });
    const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret });

    const event = new StripePayments({ apiKey: 'sk_test_x', webhookSecret: secret }).constructWebhookEvent(
      payload,
      header,
    );

    expect(event).toMatchObject({ id: 'evt_signe_par_un_testeur', subscriptionId: 'sub_123' });
  });
});
