import type { Payments } from '../../functions/domain/billing/ports';
import type { WebhookDelivery } from '../../lib/local/stripe/stand-in';

/** The site's origin as the service sees it in tests. */
export const PUBLIC_URL = 'http://localhost:3000';

/** The checkout session id at the end of a hosted-checkout URL. */
export const checkoutSessionIdOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** The verified event of a recorded delivery, as the webhook handler would get it. */
export const verifiedEvent = (payments: Payments, delivery: WebhookDelivery) =>
  payments.constructWebhookEvent(delivery.payload, delivery.signature);

/** The subscription an event is about (the event's own object, or its invoice's subscription). */
export function subscriptionOfDelivery(delivery: WebhookDelivery): string | null {
  const object = delivery.event.data.object as {
    object?: string;
    id: string;
    subscription?: string | null;
    parent?: { subscription_details?: { subscription?: string } };
  };
  if (object.object === 'subscription') return object.id;
  if (object.object === 'invoice') return object.parent?.subscription_details?.subscription ?? null;
  return object.subscription ?? null;
}

/** Every ordering of a list. */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}
