import { normaliseLicenseEmail } from '../identity/keys';
import { listShardPartition } from '../table/keys';

/*
 * Key formats of subscriptions, checkouts, the licences' billing side and Stripe events. Changing
 * one changes where existing items are looked for: it needs a migration.
 */

export const subscriptionKey = (subscriptionId: string) => ({
  PK: `SUBSCRIPTION#${subscriptionId}`,
  SK: 'SUBSCRIPTION',
});
/** The lease that serialises the work on one subscription. */
export const subscriptionLockKey = (subscriptionId: string) => ({
  PK: `SUBSCRIPTION_LOCK#${subscriptionId}`,
  SK: 'LOCK',
});
/** The billing side of a licence: its subscription, customer and cancellation. */
export const licenseBillingKey = (keyHash: string) => ({ PK: `LICENSE_BILLING#${keyHash}`, SK: 'BILLING' });
/**
 * GSI2: the billing records of one billing address (the buyer's checkout e-mail), which stays the
 * address of the portal link and the licence's e-mails when the licence is associated elsewhere.
 */
export const billingEmailPartition = (email: string) => `BILLING_EMAIL#${normaliseLicenseEmail(email)}`;
export const checkoutKey = (checkoutSessionId: string) => ({
  PK: `CHECKOUT#${checkoutSessionId}`,
  SK: 'CHECKOUT',
});
/**
 * The licences due for purge: GSI1 shards `LAWYER_PURGE_DUE#<0..3>`, and `LAWYER_PURGE_DUE` for
 * those written before the sharding; read oldest first by the hourly retention run.
 */
export const PURGE_DUE_PARTITION = 'LAWYER_PURGE_DUE';
/** The GSI1 partition of a licence due for purge, by its key hash. */
export const purgeDuePartition = (keyHash: string) => listShardPartition(PURGE_DUE_PARTITION, keyHash);
/** GSI1 sort key of a licence due for purge: `<purge date ISO>#<key hash>`. */
export const purgeDueSortKey = (purgeAfter: Date, keyHash: string) =>
  `${purgeAfter.toISOString()}#${keyHash}`;
/** The upper bound of a purge-due query: everything due at or before `now`. */
export const purgeDueBound = (now: Date) => `${now.toISOString()}#~`;

export const stripeEventKey = (eventId: string) => ({ PK: `STRIPE_EVENT#${eventId}`, SK: 'STRIPE_EVENT' });

/** A firm's data export (its status, file and link's start). */
export const dataExportKey = (exportId: string) => ({ PK: `DATA_EXPORT#${exportId}`, SK: 'EXPORT' });
/** A firm's export turn: its latest export, and whether one is being built (one at a time). */
export const firmExportKey = (lawyerId: string) => ({ PK: `FIRM_EXPORT#${lawyerId}`, SK: 'TURN' });
