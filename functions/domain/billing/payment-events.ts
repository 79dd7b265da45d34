import { randomUUID } from 'node:crypto';

import type { Clock, Logger } from '../core/ports';
import type { PaymentEvent, StripeEvents } from './ports';
import type { SubscriptionSync } from './subscription-sync';

export interface PaymentEventServiceDependencies {
  readonly events: StripeEvents;
  readonly sync: Pick<SubscriptionSync, 'fulfilCheckout' | 'syncSubscription'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * What became of a webhook event: `applied`, `duplicate` (applied before), `busy` (another delivery or
 * work on its subscription in progress: answered non-2xx so Stripe retries), `ignored` (not listened to).
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'busy' | 'ignored';

/** The event types the product listens to; configure the Stripe webhook endpoint with these. */
export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;

const CHECKOUT_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
]);
const HANDLED: ReadonlySet<string> = new Set(HANDLED_EVENT_TYPES);
/** How long a delivery holds its event, in milliseconds: longer than one handler run. */
const EVENT_LEASE_MS = 60_000;

/** Stripe's webhook events, each applied once (a claim per event) through the subscription sync. */
export class PaymentEventService {
  constructor(private readonly deps: PaymentEventServiceDependencies) {}

  /**
   * Applies a verified webhook event once. Throws when it could not be applied (the claim is
   * given up, so Stripe's next delivery applies it).
   */
  async handleWebhookEvent(event: PaymentEvent): Promise<WebhookOutcome> {
    if (!HANDLED.has(event.type)) return 'ignored';
    const claim = await this.deps.events.claim(event, randomUUID(), this.deps.clock.now(), EVENT_LEASE_MS);
    if (claim.outcome === 'applied') return 'duplicate';
    if (claim.outcome === 'in_progress') return 'busy';
    try {
      const work = CHECKOUT_EVENTS.has(event.type)
        ? await this.deps.sync.fulfilCheckout(event.checkoutSessionId)
        : await this.deps.sync.syncSubscription(event.subscriptionId);
      if (work === 'busy') {
        await this.deps.events.release(event.id, claim.token);
        return 'busy';
      }
      await this.deps.events.markApplied(event.id, claim.token, work, this.deps.clock.now());
      if (work !== 'done') {
        // An unknown checkout or subscription: nothing changed, and the reply says so.
        this.deps.logger.info('Événement Stripe sans effet', {
          eventId: event.id,
          eventType: event.type,
          work,
        });
        return 'ignored';
      }
      this.deps.logger.info('Événement Stripe appliqué', { eventId: event.id, eventType: event.type });
      return 'applied';
    } catch (error) {
      await this.deps.events.release(event.id, claim.token).catch(() => undefined);
      throw error;
    }
  }
}
