import Flashbar, { type FlashbarProps } from '@cloudscape-design/components/flashbar';

import { STRINGS } from '../strings';
import { useNotificationList, useNotifications } from './notifications-context';

/** The one Flashbar of a layout, fed by the notifications context. */
export function NotificationsFlashbar() {
  const notifications = useNotificationList();
  const { dismiss } = useNotifications();
  const items: FlashbarProps.MessageDefinition[] = notifications.map((notification) => ({
    id: notification.id,
    type: notification.type,
    content: notification.content,
    dismissible: true,
    dismissLabel: STRINGS.notifications.dismiss,
    ariaRole: notification.type === 'error' ? 'alert' : 'status',
    onDismiss: () => dismiss(notification.id),
  }));
  return <Flashbar items={items} stackItems />;
}
