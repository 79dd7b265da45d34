import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { endedSession } from '../../api/api-errors';
import { useApiQuery } from '../../api/use-api-query';
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
  const query = useApiQuery((signal) => callApi('checkSubscription', { body: {}, signal }));
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    try {
      const view = await callApi('checkSubscription', { body: {} });
      query.setData(() => view);
      notifications.success(MESSAGES.subscription.statusRefreshed);
    } catch (error) {
      if (!endedSession(error)) notifications.error(MESSAGES.subscription.checkFailed);
    } finally {
      setRefreshing(false);
    }
  };

  const view = query.data;
  if (!view) {
    if (query.loading) return <StatusIndicator type="loading">{TEXT.loading}</StatusIndicator>;
    return (
      <Alert type="error" action={<Button onClick={() => void query.reload()}>{TEXT.retry}</Button>}>
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
      onChanged={() => void query.reload()}
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
          onReactivated={() => void query.reload()}
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
