import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { freePort } from '../free-port';
import { handleApi } from './api';
import { payCheckoutSession } from './checkout-sessions';
import { handlePage } from './hosted-pages';
import { StandInState, type StripeStandInOptions } from './state';
import { actOnSubscription, type SubscriptionAction } from './subscriptions';
import type { WebhookDelivery } from './webhooks';

export type { StripeStandInOptions } from './state';
export type { SubscriptionAction } from './subscriptions';
export { type StandInEvent, signWebhookPayload, type WebhookDelivery } from './webhooks';

/**
 * The local Stripe stand-in: the API calls the product makes, a hosted checkout that sends signed
 * webhook events, a portal, and tester endpoints for a subscription's later life; one module per
 * Stripe resource, sharing the in-memory state of `state.ts`.
 */
export interface StripeStandIn {
  /** The base URL of the hosted pages and of the testers' index (`/_stand-in`). */
  readonly url: string;
  readonly port: number;
  /** The SDK options that point it at the stand-in. */
  readonly connection: { readonly host: string; readonly port: number; readonly protocol: 'http' };
  /** Every event sent, in order. */
  readonly deliveries: readonly WebhookDelivery[];
  /** What paying on the hosted-checkout page does; resolves to the success URL once the events are delivered. */
  pay(checkoutSessionId: string): Promise<string>;
  /** The later life of a subscription, as the index page's buttons drive it. */
  act(subscriptionId: string, action: SubscriptionAction): Promise<void>;
  /** Resolves when every event sent so far has been delivered (or given up on). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

function handle(state: StandInState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  const method = request.method ?? 'GET';
  if (url.pathname.startsWith('/v1/')) return handleApi(state, request, response, url, method);
  return handlePage(state, request, response, url, method);
}

/** Starts the stand-in on 127.0.0.1. */
export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const port = options.port ?? (await freePort());
  const baseUrl = (options.publicBaseUrl ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
  const state = new StandInState(options, baseUrl);
  const server = createServer((request, response) => {
    handle(state, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Erreur interne du simulateur Stripe');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: baseUrl,
    port,
    connection: { host: '127.0.0.1', port, protocol: 'http' },
    deliveries: state.webhooks.deliveries,
    pay: (id) => payCheckoutSession(state, id),
    act: (id, action) => actOnSubscription(state, id, action),
    idle: () => state.webhooks.idle(),
    stop: async () => {
      await state.webhooks.idle();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A fresh webhook signing secret for a local run. */
export const newWebhookSecret = () => `whsec_${randomUUID().replace(/-/g, '')}`;
