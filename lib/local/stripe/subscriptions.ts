import type { FormObject } from './form';
import { createInvoice, openInvoiceOf, renewalTotal } from './invoices';
import {
  type Coupon,
  type Customer,
  invoiceJson,
  type LineItem,
  type Metadata,
  oneMonthAfter,
  type Subscription,
  stripeId,
  subscriptionJson,
} from './objects';
import type { StandInState } from './state';
import { badRequest, noSuch, Params } from './validation';

export type SubscriptionAction = 'renew' | 'fail-payment' | 'mark-unpaid' | 'delete';

/** The subscription a paid checkout starts: active, its first period beginning now. */
export function startSubscription(
  state: StandInState,
  input: {
    readonly customer: Customer;
    readonly item: LineItem;
    readonly metadata: Metadata;
    readonly coupon: Coupon | undefined;
    readonly now: number;
  },
): Subscription {
  const subscription: Subscription = {
    id: stripeId('sub', 24),
    itemId: stripeId('si'),
    created: input.now,
    customerId: input.customer.id,
    item: input.item,
    metadata: input.metadata,
    discountCouponId: input.coupon?.id ?? null,
    status: 'active',
    currentPeriodStart: input.now,
    currentPeriodEnd: oneMonthAfter(input.now),
    canceledAt: null,
    endedAt: null,
    cancelAtPeriodEnd: false,
    latestInvoiceId: null,
  };
  state.subscriptions.set(subscription.id, subscription);
  return subscription;
}

/** GET /v1/subscriptions/:id */
export function retrieveSubscription(state: StandInState, id: string, form: FormObject) {
  Params.of(form, '', ['expand']).expand([]);
  const subscription = state.subscriptions.get(id);
  if (!subscription) throw noSuch('subscription', id);
  return subscriptionJson(subscription);
}

/** DELETE /v1/subscriptions/:id: cancels at once. */
export function cancelSubscription(state: StandInState, id: string, form: FormObject) {
  const params = Params.of(form, '', ['invoice_now', 'prorate', 'cancellation_details', 'expand']);
  params.expand([]);
  params.boolean('invoice_now');
  params.boolean('prorate');
  Params.of(params.raw('cancellation_details'), 'cancellation_details', ['comment', 'feedback']);
  const subscription = state.subscriptions.get(id);
  if (!subscription) throw noSuch('subscription', id);
  if (subscription.status === 'canceled') {
    throw badRequest(
      `This subscription has already been canceled (${id}).`,
      undefined,
      'subscription_canceled',
    );
  }
  // As at Stripe, the webhook follows the response rather than holding it up.
  void endSubscription(state, subscription);
  return subscriptionJson(subscription);
}

/**
 * POST /v1/subscriptions/:id: the one update the product makes, `cancel_at_period_end`. As at
 * Stripe, asking it sets `canceled_at` (the request's time) and withdrawing it clears it; the change
 * is announced by `customer.subscription.updated`.
 */
export function updateSubscription(state: StandInState, id: string, form: FormObject) {
  const params = Params.of(form, '', ['cancel_at_period_end', 'expand']);
  params.expand([]);
  const cancelAtPeriodEnd = params.boolean('cancel_at_period_end');
  const subscription = state.subscriptions.get(id);
  if (!subscription) throw noSuch('subscription', id);
  if (subscription.status === 'canceled') {
    throw badRequest(
      'A canceled subscription can only update its cancellation_details and metadata.',
      'cancel_at_period_end',
    );
  }
  // As at Stripe, the webhook follows the response rather than holding it up.
  if (cancelAtPeriodEnd !== undefined) void setCancelAtPeriodEnd(state, subscription, cancelAtPeriodEnd);
  return subscriptionJson(subscription);
}

/** Sets or withdraws the end at the period's end, announced by `customer.subscription.updated`. */
export function setCancelAtPeriodEnd(
  state: StandInState,
  subscription: Subscription,
  cancelAtPeriodEnd: boolean,
): Promise<void> {
  if (cancelAtPeriodEnd === subscription.cancelAtPeriodEnd) return Promise.resolve();
  const previous = { cancel_at_period_end: subscription.cancelAtPeriodEnd };
  subscription.cancelAtPeriodEnd = cancelAtPeriodEnd;
  subscription.canceledAt = cancelAtPeriodEnd ? state.nowSeconds() : null;
  return state.webhooks.send('customer.subscription.updated', subscriptionJson(subscription), previous);
}

/** Ends a subscription now and sends `customer.subscription.deleted`. */
export function endSubscription(state: StandInState, subscription: Subscription): Promise<void> {
  const now = state.nowSeconds();
  subscription.status = 'canceled';
  subscription.canceledAt ??= now;
  subscription.endedAt = now;
  return state.webhooks.send('customer.subscription.deleted', subscriptionJson(subscription));
}

/** The later life of a subscription, as Stripe would live it. */
export async function actOnSubscription(
  state: StandInState,
  subscriptionId: string,
  action: SubscriptionAction,
): Promise<void> {
  const subscription = state.subscriptions.get(subscriptionId);
  if (!subscription) throw noSuch('subscription', subscriptionId);
  if (subscription.status === 'canceled') {
    throw badRequest(`This subscription has already been canceled (${subscriptionId}).`);
  }
  const customer = state.customers.get(subscription.customerId);
  const previousStatus = subscription.status;
  const amount = subscription.item.unitAmount * subscription.item.quantity;
  const coupon = subscription.discountCouponId ? state.coupons.get(subscription.discountCouponId) : undefined;
  const total = coupon?.duration === 'forever' ? renewalTotal(amount, coupon) : amount;
  switch (action) {
    case 'renew': {
      // The period's end of a subscription set to end there: Stripe ends it instead of billing.
      if (subscription.cancelAtPeriodEnd && !openInvoiceOf(state, subscription.id)) {
        await endSubscription(state, subscription);
        return;
      }
      // Pays the invoice left open by a failed payment, or else bills the next period.
      const open = openInvoiceOf(state, subscription.id);
      if (!open) advancePeriod(subscription);
      const invoice =
        open ?? createInvoice(state, subscription, customer, 'subscription_cycle', amount, total);
      invoice.status = 'paid';
      invoice.attemptCount += open ? 1 : 0;
      subscription.latestInvoiceId = invoice.id;
      subscription.status = 'active';
      await state.webhooks.send('invoice.paid', invoiceJson(invoice));
      break;
    }
    case 'fail-payment': {
      // Stripe opens the next period when it attempts the renewal, paid or not.
      advancePeriod(subscription);
      const invoice = createInvoice(state, subscription, customer, 'subscription_cycle', amount, total);
      subscription.latestInvoiceId = invoice.id;
      subscription.status = 'past_due';
      await state.webhooks.send('invoice.payment_failed', invoiceJson(invoice));
      break;
    }
    case 'mark-unpaid':
      subscription.status = 'unpaid';
      break;
    case 'delete':
      await endSubscription(state, subscription);
      return;
    default:
      throw badRequest(`Unknown action: ${String(action)}`);
  }
  if (subscription.status !== previousStatus) {
    await state.webhooks.send('customer.subscription.updated', subscriptionJson(subscription), {
      status: previousStatus,
    });
  }
}

function advancePeriod(subscription: Subscription) {
  subscription.currentPeriodStart = subscription.currentPeriodEnd;
  subscription.currentPeriodEnd = oneMonthAfter(subscription.currentPeriodEnd);
}
