import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { cancelSubscription, openCustomerPortal, updateLicenseEmail } from '../../api/billing';
import { useNotifications } from '../../notifications/notifications-context';
import { SUBSCRIPTION_TEXT as TEXT } from './strings';

type Action = 'portal' | 'associate' | 'cancel';

interface SubscriptionActionsProps {
  /** The licence the actions act on; null when there is none (only 'Actualiser' is offered). */
  readonly licenseKey: string | null;
  /** Whether the licence can still be cancelled: active, and no cancellation scheduled yet. */
  readonly cancellable: boolean;
  /** The end of the paid month (French long date), named by the confirmation; null when unknown. */
  readonly paidUntil: string | null;
  readonly refreshing: boolean;
  readonly onRefresh: () => void;
  /** Called after a change the server made to the licence, to show its new state. */
  readonly onChanged: () => void;
}

/**
 * The actions card (spec §2, §6): 'Actualiser', the payment provider's customer portal in a new
 * tab, associate the licence to the account's e-mail, and cancel behind a confirmation.
 */
export function SubscriptionActions({
  licenseKey,
  cancellable,
  paidUntil,
  refreshing,
  onRefresh,
  onChanged,
}: SubscriptionActionsProps) {
  const notifications = useNotifications();
  const [running, setRunning] = useState<Action>();
  const [confirmingCancel, setConfirmingCancel] = useState(false);

  /** Raises the toast of a failed action, unless the session is over (the sign-in page says so). */
  const fail = (error: unknown, message: string) => {
    if (!endedSession(error)) notifications.error(message);
  };

  const openPortal = async () => {
    // The tab is opened inside the click itself: one opened after the reply arrives would be
    // taken for a popup and blocked. It starts blank (same origin) and is sent to the portal.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    setRunning('portal');
    try {
      const reply = await openCustomerPortal();
      if (!reply.url) {
        tab?.close();
        notifications.error(reply.error || MESSAGES.subscription.customerPortalFailed);
        return;
      }
      // With the popup refused all the same, the portal replaces this page (spec §7's other reading).
      if (tab) tab.location.href = reply.url;
      else window.location.assign(reply.url);
    } catch (error) {
      tab?.close();
      fail(error, MESSAGES.subscription.customerPortalFailed);
    } finally {
      setRunning(undefined);
    }
  };

  const associate = async (key: string) => {
    setRunning('associate');
    try {
      const reply = await updateLicenseEmail(key);
      if (reply.success) {
        notifications.success(MESSAGES.subscription.licenseUpdated);
        onChanged();
      } else {
        notifications.error(reply.error || MESSAGES.subscription.updateLicenseFailed);
      }
    } catch (error) {
      fail(error, MESSAGES.subscription.updateLicenseFailed);
    } finally {
      setRunning(undefined);
    }
  };

  const cancel = async (key: string) => {
    setRunning('cancel');
    try {
      const reply = await cancelSubscription(key);
      if (reply.success) {
        // Access lasts until the end of the paid month: the page now says until when.
        notifications.success(
          paidUntil ? TEXT.scheduledCancellation.header(paidUntil) : MESSAGES.subscription.canceled,
        );
        onChanged();
      } else {
        notifications.error(reply.error || MESSAGES.subscription.cancelFailed);
      }
    } catch (error) {
      fail(error, MESSAGES.subscription.cancelFailed);
    }
    setConfirmingCancel(false);
    setRunning(undefined);
  };

  return (
    <Container header={<Header variant="h2">{TEXT.actions.title}</Header>}>
      <SpaceBetween size="m">
        {/* One column of full-width buttons, each with its line of explanation, so they line up. */}
        <SpaceBetween size="xxs">
          <Button fullWidth iconName="refresh" loading={refreshing} onClick={onRefresh}>
            {TEXT.actions.refresh}
          </Button>
          <Box variant="small" color="text-body-secondary">
            {TEXT.actions.refreshHint}
          </Box>
        </SpaceBetween>
        {/* Each group a direct child: inside a fragment they would share one slot, unspaced. */}
        {licenseKey !== null && (
          <SpaceBetween size="xxs">
            <Button
              fullWidth
              iconName="external"
              iconAlign="right"
              ariaLabel={`${TEXT.actions.portal} ${TEXT.newTab}`}
              loading={running === 'portal'}
              onClick={() => void openPortal()}
            >
              {TEXT.actions.portal}
            </Button>
            <Box variant="small" color="text-body-secondary">
              {TEXT.actions.portalHint}
            </Box>
          </SpaceBetween>
        )}
        {licenseKey !== null && (
          <SpaceBetween size="xxs">
            <Button
              fullWidth
              iconName="envelope"
              loading={running === 'associate'}
              onClick={() => void associate(licenseKey)}
            >
              {TEXT.actions.associate}
            </Button>
            <Box variant="small" color="text-body-secondary">
              {TEXT.actions.associateHint}
            </Box>
          </SpaceBetween>
        )}
        {licenseKey !== null && (
          <SpaceBetween size="xxs">
            <Button
              fullWidth
              iconName="close"
              disabled={!cancellable}
              onClick={() => setConfirmingCancel(true)}
            >
              {TEXT.actions.cancel}
            </Button>
            <Box variant="small" color="text-body-secondary">
              {TEXT.actions.cancelHint}
            </Box>
          </SpaceBetween>
        )}
      </SpaceBetween>
      {licenseKey !== null && (
        <Modal
          visible={confirmingCancel}
          onDismiss={() => {
            if (running !== 'cancel') setConfirmingCancel(false);
          }}
          closeAriaLabel={TEXT.cancelModal.close}
          header={TEXT.cancelModal.title}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  variant="link"
                  disabled={running === 'cancel'}
                  onClick={() => setConfirmingCancel(false)}
                >
                  {TEXT.cancelModal.dismiss}
                </Button>
                <Button
                  variant="primary"
                  loading={running === 'cancel'}
                  onClick={() => void cancel(licenseKey)}
                >
                  {TEXT.cancelModal.confirm}
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          {TEXT.cancelModal.text(paidUntil)}
        </Modal>
      )}
    </Container>
  );
}
