import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import { useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { reactivateSubscription } from '../../api/billing';
import { formatLongDate } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { SUBSCRIPTION_TEXT as TEXT } from './strings';

interface ScheduledCancellationProps {
  /** The end of the paid month, when access ends. */
  readonly accessEndsAt: string;
  readonly licenseKey: string;
  /** Called once the renewal is back, to show the subscription's new state. */
  readonly onReactivated: () => void;
}

/**
 * A cancellation asked for and not yet in effect: until when the firm keeps its access, and the
 * one click that withdraws it.
 */
export function ScheduledCancellation({
  accessEndsAt,
  licenseKey,
  onReactivated,
}: ScheduledCancellationProps) {
  const notifications = useNotifications();
  const [running, setRunning] = useState(false);

  const reactivate = async () => {
    setRunning(true);
    try {
      const reply = await reactivateSubscription(licenseKey);
      if (reply.success) {
        notifications.success(TEXT.scheduledCancellation.reactivated);
        onReactivated();
      } else {
        notifications.error(reply.error || MESSAGES.subscription.reactivateFailed);
      }
    } catch (error) {
      if (!endedSession(error)) notifications.error(MESSAGES.subscription.reactivateFailed);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div data-testid="scheduled-cancellation">
      <Alert
        type="warning"
        header={TEXT.scheduledCancellation.header(formatLongDate(accessEndsAt))}
        action={
          <Button loading={running} onClick={() => void reactivate()}>
            {TEXT.scheduledCancellation.reactivate}
          </Button>
        }
      >
        {TEXT.scheduledCancellation.text}
      </Alert>
    </div>
  );
}
