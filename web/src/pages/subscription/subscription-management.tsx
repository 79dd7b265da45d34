import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { checkSubscription, subscriptionQuery } from '../../api/billing';
import { formatLongDate } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { PricingCard } from './pricing-card';
import { ScheduledCancellation } from './scheduled-cancellation';
import { SUBSCRIPTION_TEXT as TEXT } from './strings';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionDetails } from './subscription-details';
import { isPaymentOverdue, type StatusReading } from './subscription-status';

interface SubscriptionManagementProps {
  readonly reading: StatusReading;
  /** The signed-in licence, shown and acted on when the server's view names none. */
  readonly sessionLicenseKey: string;
}

/**
 * The body of 'Gestion de l'abonnement' for a signed-in member: check-subscription on load and on
 * 'Actualiser' (spec §7), then the status, the overdue warning, the prices and the actions.
 */
export function SubscriptionManagement({ reading, sessionLicenseKey }: SubscriptionManagementProps) {
  const notifications = useNotifications();
  // No licence key in the body: the server reads the session's own licence.
  const query = useQuery(subscriptionQuery);
  const client = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    try {
      client.setQueryData(subscriptionQuery.queryKey, await checkSubscription());
      notifications.success(MESSAGES.subscription.statusRefreshed);
    } catch (error) {
      if (!endedSession(error)) notifications.error(MESSAGES.subscription.checkFailed);
    } finally {
      setRefreshing(false);
    }
  };

  const view = query.data;
  if (!view) {
    if (query.isPending) return <StatusIndicator type="loading">{TEXT.loading}</StatusIndicator>;
    return (
      <Alert type="error" action={<Button onClick={() => void query.refetch()}>{TEXT.retry}</Button>}>
        {MESSAGES.subscription.fetchFailed}
      </Alert>
    );
  }

  const actions = (
    <SubscriptionActions
      licenseKey={view.hasLicense ? (view.licenseKey ?? sessionLicenseKey) : null}
      cancellable={view.licenseActive && !view.accessEndsAt}
      paidUntil={view.nextPaymentDue ? formatLongDate(view.nextPaymentDue) : null}
      refreshing={refreshing}
      onRefresh={() => void refresh()}
      onChanged={() => void query.refetch()}
    />
  );

  if (!view.hasLicense) {
    return (
      <SpaceBetween size="l">
        <Alert
          type="warning"
          header={MESSAGES.subscription.noLicense}
          action={
            <Button href="/purchase" external i18nStrings={{ externalIconAriaLabel: TEXT.newTab }}>
              {TEXT.purchase}
            </Button>
          }
        >
          {MESSAGES.subscription.noLicenseDetail} {STRINGS.product.name}.
        </Alert>
        <ColumnLayout columns={2}>
          <PricingCard />
          {actions}
        </ColumnLayout>
      </SpaceBetween>
    );
  }

  // A cancelled or suspended licence has no debit to chase: the warning would only mislead.
  const overdue = view.licenseActive && isPaymentOverdue(view.nextPaymentDue);
  return (
    <SpaceBetween size="l">
      {overdue && (
        <Alert type="error" header={MESSAGES.subscription.overdueTitle}>
          {MESSAGES.subscription.overdueDetail}
        </Alert>
      )}
      {view.accessEndsAt && (
        <ScheduledCancellation
          accessEndsAt={view.accessEndsAt}
          licenseKey={view.licenseKey ?? sessionLicenseKey}
          onReactivated={() => void query.refetch()}
        />
      )}
      <SubscriptionDetails
        view={view}
        reading={reading}
        overdue={overdue}
        fallbackLicenseKey={sessionLicenseKey}
      />
      <ColumnLayout columns={2}>
        <PricingCard />
        {actions}
      </ColumnLayout>
    </SpaceBetween>
  );
}
