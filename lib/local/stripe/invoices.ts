import { type Coupon, type Customer, type Invoice, type Subscription, stripeId } from './objects';
import type { StandInState } from './state';

/** A new invoice of a subscription, open until it is paid. */
export function createInvoice(
  state: StandInState,
  subscription: Subscription,
  customer: Customer | undefined,
  billingReason: Invoice['billingReason'],
  subtotal: number,
  total: number,
): Invoice {
  const invoice: Invoice = {
    id: stripeId('in', 24),
    created: state.nowSeconds(),
    customerId: subscription.customerId,
    customerEmail: customer?.email ?? null,
    subscriptionId: subscription.id,
    subscriptionMetadata: subscription.metadata,
    billingReason,
    currency: subscription.item.currency,
    subtotal,
    total,
    periodStart: subscription.currentPeriodStart,
    periodEnd:
      billingReason === 'subscription_create'
        ? subscription.currentPeriodStart
        : subscription.currentPeriodEnd,
    status: 'open',
    attemptCount: 1,
  };
  state.invoices.set(invoice.id, invoice);
  return invoice;
}

/** The invoice of a subscription left open by a failed payment, if any. */
export const openInvoiceOf = (state: StandInState, subscriptionId: string): Invoice | undefined =>
  [...state.invoices.values()].find(
    (invoice) => invoice.subscriptionId === subscriptionId && invoice.status === 'open',
  );

/** A renewal's total under a coupon that applies forever. */
export function renewalTotal(amount: number, coupon: Coupon): number {
  if (coupon.percentOff !== null) return amount - Math.round((amount * coupon.percentOff) / 100);
  return Math.max(0, amount - (coupon.amountOff ?? 0));
}
