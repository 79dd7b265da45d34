import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';

import { MESSAGES, type SubscriptionView } from '../../../../shared';
import { formatLongDate } from '../../format/dates';
import { SUBSCRIPTION_TEXT as TEXT } from './strings';
import { type StatusReading, statusBadge } from './subscription-status';

interface SubscriptionDetailsProps {
  readonly view: SubscriptionView;
  readonly reading: StatusReading;
  /** The next debit is due today or earlier: its date shows in red. */
  readonly overdue: boolean;
  /** The session's licence key, shown when the view has none of its own. */
  readonly fallbackLicenseKey: string;
}

/** The subscription's status badge, licence key and next debit date (spec §2, §4). */
export function SubscriptionDetails({
  view,
  reading,
  overdue,
  fallbackLicenseKey,
}: SubscriptionDetailsProps) {
  const badge = statusBadge(reading, view);
  const nextDebit = view.accessEndsAt
    ? TEXT.scheduledCancellation.nextDebit
    : view.nextPaymentDue
      ? formatLongDate(view.nextPaymentDue)
      : MESSAGES.subscription.undefinedDate;
  return (
    <Container header={<Header variant="h2">{TEXT.details.title}</Header>}>
      <KeyValuePairs
        columns={3}
        items={[
          {
            label: TEXT.details.status,
            value: (
              <span data-testid="subscription-status">
                <Badge color={badge.color}>{badge.label}</Badge>
              </span>
            ),
          },
          {
            label: TEXT.details.licenseKey,
            // One piece, never broken at its hyphen on a phone: it is read and typed as a whole.
            value: (
              <Box variant="code">
                <span style={{ whiteSpace: 'nowrap' }}>{view.licenseKey ?? fallbackLicenseKey}</span>
              </Box>
            ),
          },
          {
            label: TEXT.details.nextDebit,
            value: (
              <span data-testid="next-debit">
                <Box
                  variant="span"
                  color={overdue ? 'text-status-error' : 'inherit'}
                  fontWeight={overdue ? 'bold' : 'normal'}
                >
                  {nextDebit}
                </Box>
              </span>
            ),
          },
        ]}
      />
    </Container>
  );
}
