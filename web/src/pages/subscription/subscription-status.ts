import type { BadgeProps } from '@cloudscape-design/components/badge';

import type { SubscriptionView } from '../../../../shared';

/** One status badge: its French label and its colour. */
export interface StatusBadge {
  readonly label: string;
  readonly color: NonNullable<BadgeProps['color']>;
}

/**
 * One reading of the subscription status (spec §4 gives two): the badge of each known Stripe
 * status, the badge that wins when the licence is not active, and the one for a licence with no
 * subscription recorded. A status the reading does not know is shown as the provider wrote it.
 */
export interface StatusReading {
  readonly statuses: Readonly<Record<string, StatusBadge>>;
  readonly licenseInactive: StatusBadge;
  readonly noSubscription: StatusBadge;
}

/** Which reading a page uses: /subscription the subscription page's, /lawyer/settings the settings'. */
export type StatusReadingName = 'subscription' | 'settings';

const UNKNOWN_COLOR = 'grey';

/**
 * 'Aucun abonnement' is ours (same voice): the spec names no label for a licence without a
 * subscription status, which is the case of a licence issued by hand rather than bought.
 */
const NO_SUBSCRIPTION: StatusBadge = { label: 'Aucun abonnement', color: 'grey' };

/** The two readings of spec §4, as data. */
export const STATUS_READINGS: Readonly<Record<StatusReadingName, StatusReading>> = {
  subscription: {
    statuses: {
      active: { label: 'Actif', color: 'green' },
      past_due: { label: 'Paiement en retard', color: 'red' },
      canceled: { label: 'Annulé', color: 'grey' },
      incomplete: { label: 'Incomplet', color: 'blue' },
    },
    licenseInactive: { label: 'Inactive', color: 'red' },
    noSubscription: NO_SUBSCRIPTION,
  },
  settings: {
    statuses: {
      active: { label: 'Actif', color: 'green' },
      past_due: { label: 'Impayé', color: 'red' },
      incomplete: { label: 'Incomplet', color: 'blue' },
      // Stripe writes 'canceled'; the settings reading also names the British spelling.
      canceled: { label: 'Résilié', color: 'grey' },
      cancelled: { label: 'Résilié', color: 'grey' },
      none: NO_SUBSCRIPTION,
    },
    licenseInactive: { label: 'Résilié', color: 'grey' },
    noSubscription: NO_SUBSCRIPTION,
  },
};

/** The badge of a subscription view in one reading; an inactive licence wins over any status. */
export function statusBadge(
  reading: StatusReading,
  view: Pick<SubscriptionView, 'licenseActive' | 'subscriptionStatus'>,
): StatusBadge {
  if (!view.licenseActive) return reading.licenseInactive;
  const status = view.subscriptionStatus;
  if (status === null || status === '') return reading.noSubscription;
  return Object.hasOwn(reading.statuses, status)
    ? (reading.statuses[status] as StatusBadge)
    : { label: status, color: UNKNOWN_COLOR };
}

/** Midnight of the day a date falls on, in the user's time zone. */
function dayOf(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/**
 * Whether the next debit is overdue (spec §4): its day is today or earlier, in the user's time
 * zone. A missing or unreadable date is never overdue.
 */
export function isPaymentOverdue(nextPaymentDue: string | null, now: Date = new Date()): boolean {
  if (!nextPaymentDue) return false;
  const due = new Date(nextPaymentDue);
  if (Number.isNaN(due.getTime())) return false;
  return dayOf(due) <= dayOf(now);
}
