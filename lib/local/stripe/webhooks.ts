import { createHmac } from 'node:crypto';

import Stripe from 'stripe';

import { stripeId } from './objects';

/** A Stripe event as sent to the webhook. */
export interface StandInEvent {
  readonly id: string;
  readonly object: 'event';
  readonly api_version: string;
  readonly created: number;
  readonly type: string;
  readonly livemode: false;
  readonly pending_webhooks: number;
  readonly request: { id: null; idempotency_key: null };
  readonly data: {
    object: { id: string } & Record<string, unknown>;
    previous_attributes?: Record<string, unknown>;
  };
}

export interface WebhookDelivery {
  readonly event: StandInEvent;
  /** The exact body sent (and signed). */
  readonly payload: string;
  /** The Stripe-Signature header of the first attempt. */
  readonly signature: string;
  status: 'recorded' | 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
}

/** Where and how the events go. */
export interface WebhookEndpoint {
  /** Where the signed events go; without it they are only recorded in `deliveries`. */
  readonly webhookUrl?: string;
  /** The endpoint's signing secret, `whsec_...`, that the webhook handler verifies with. */
  readonly webhookSecret: string;
  /** Announces each event sent (the local runtime prints it on the console). */
  readonly log?: (message: string) => void;
}

/** Stripe's webhook signature: `t=<unix time>,v1=<HMAC-SHA256 of "t.payload" under the secret>`. */
export function signWebhookPayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

const DELIVERY_ATTEMPTS = 3;

/**
 * The stand-in's webhook sender: records every event, signs it as Stripe does and delivers the
 * events one after the other, in the order they happened.
 */
export class WebhookSender {
  /** Every event sent, in order. */
  readonly deliveries: WebhookDelivery[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly endpoint: WebhookEndpoint,
    private readonly nowSeconds: () => number,
  ) {}

  /** Records an event and queues its delivery; resolves once it is delivered or given up. */
  send(
    type: string,
    object: { id: string } & Record<string, unknown>,
    previousAttributes?: Record<string, unknown>,
  ): Promise<void> {
    const event: StandInEvent = {
      id: stripeId('evt', 24),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: this.endpoint.webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
    };
    const payload = JSON.stringify(event, null, 2);
    const delivery: WebhookDelivery = {
      event,
      payload,
      signature: signWebhookPayload(payload, this.endpoint.webhookSecret, this.nowSeconds()),
      status: this.endpoint.webhookUrl ? 'pending' : 'recorded',
      attempts: 0,
      lastStatusCode: null,
    };
    this.deliveries.push(delivery);
    this.endpoint.log?.(`Stripe (local) : ${type} ${event.id} pour ${object.id}`);
    const webhookUrl = this.endpoint.webhookUrl;
    if (!webhookUrl) return Promise.resolve();
    const delivered = this.queue.then(() => this.deliver(delivery, webhookUrl));
    this.queue = delivered;
    return delivered;
  }

  /** Resolves when every event sent so far has been delivered (or given up on). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Delivers in order, each attempt freshly signed, retrying a few times on failure as Stripe does. */
  private async deliver(delivery: WebhookDelivery, webhookUrl: string): Promise<void> {
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      delivery.attempts = attempt;
      try {
        const result = await fetch(webhookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature':
              attempt === 1
                ? delivery.signature
                : signWebhookPayload(delivery.payload, this.endpoint.webhookSecret, this.nowSeconds()),
          },
          body: delivery.payload,
          signal: AbortSignal.timeout(15_000),
        });
        await result.arrayBuffer();
        delivery.lastStatusCode = result.status;
        if (result.ok) {
          delivery.status = 'delivered';
          return;
        }
      } catch {
        delivery.lastStatusCode = null;
      }
      if (attempt < DELIVERY_ATTEMPTS)
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** (attempt - 1)));
    }
    delivery.status = 'failed';
    this.endpoint.log?.(`Stripe (local) : échec de livraison de ${delivery.event.type} ${delivery.event.id}`);
  }
}
