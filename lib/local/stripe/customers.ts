import { type Customer, stripeId } from './objects';
import type { StandInState } from './state';

/** The customer a paid checkout creates, as Stripe does when the buyer pays. */
export function createCustomer(state: StandInState, email: string | null, now: number): Customer {
  const customer: Customer = { id: stripeId('cus'), created: now, email };
  state.customers.set(customer.id, customer);
  return customer;
}

/** The e-mail of a customer, if known. */
export const customerEmailOf = (state: StandInState, customerId: string | null): string | null =>
  customerId ? (state.customers.get(customerId)?.email ?? null) : null;
