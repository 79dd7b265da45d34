import type { LicenseState } from './ports';

/** What a licence's state follows of its subscription (billing's `SubscriptionState` carries it). */
export interface SubscriptionTerms {
  readonly status: string;
  readonly currentPeriodStart: Date | null;
  readonly currentPeriodEnd: Date | null;
  /** The firm asked to stop renewing: access until `currentPeriodEnd`, no debit after. */
  readonly cancelAtPeriodEnd: boolean;
}

/**
 * Subscription statuses under which the licence keeps access. `past_due` is among them: Stripe is
 * still retrying the payment, the firm sees 'Paiement en retard' and is asked to act "pour éviter
 * la suspension" (spec §4); when the retries are exhausted Stripe moves the subscription to
 * `unpaid` or `canceled` (per the account's settings), which suspends access.
 */
const STATUSES_WITH_ACCESS: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

/** Statuses after which no debit will ever come again. */
const ENDED_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/**
 * Statuses with a missed debit. Stripe opens the next period when it attempts the renewal, paid
 * or not, so the debit that is late is the one due at the start of the current period.
 */
const OVERDUE_STATUSES: ReadonlySet<string> = new Set(['past_due', 'unpaid']);

/** Whether a subscription status gives access; any status we do not know refuses it. */
export const hasAccess = (status: string) => STATUSES_WITH_ACCESS.has(status);

/**
 * The licence state a subscription's current state calls for. The next payment due is the end of
 * the period; while a debit is late it is that debit's date (today or earlier, so that the
 * subscription page shows it in red with 'Paiement en retard'); once the subscription has ended
 * there is none. A cancellation requested keeps the access until the period's end, with no
 * payment due: that date is `accessEndsAt`.
 */
export function licenseStateOf(subscription: SubscriptionTerms): LicenseState {
  const ended = ENDED_STATUSES.has(subscription.status);
  const endsAtPeriodEnd = !ended && subscription.cancelAtPeriodEnd && subscription.currentPeriodEnd !== null;
  const due =
    ended || endsAtPeriodEnd
      ? null
      : OVERDUE_STATUSES.has(subscription.status)
        ? (subscription.currentPeriodStart ?? subscription.currentPeriodEnd)
        : subscription.currentPeriodEnd;
  return {
    isActive: hasAccess(subscription.status),
    subscriptionStatus: subscription.status,
    nextPaymentDue: due ? due.toISOString() : null,
    accessEndsAt: endsAtPeriodEnd ? (subscription.currentPeriodEnd as Date).toISOString() : null,
  };
}

export const sameLicenseState = (a: LicenseState, b: LicenseState) =>
  a.isActive === b.isActive &&
  a.subscriptionStatus === b.subscriptionStatus &&
  a.nextPaymentDue === b.nextPaymentDue &&
  a.accessEndsAt === b.accessEndsAt;
