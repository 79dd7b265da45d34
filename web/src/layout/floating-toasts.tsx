import { Suspense } from 'react';

import { useNotificationList } from '../notifications/notifications-context';
import styles from './layout.module.css';
import { lazyComponent } from './lazy-page';

/**
 * The Flashbar's code (with its animations, about 30 kB compressed) arrives with the first toast:
 * /login and the public pages show none until the visitor acts, and must load within their budget.
 */
export const NotificationsFlashbar = lazyComponent(() =>
  import('../notifications/notifications-flashbar').then((module) => module.NotificationsFlashbar),
);

/** The toasts of a page without the app layout, floating above it once there is one. */
export function FloatingToasts() {
  const notifications = useNotificationList();
  return (
    <div className={styles.floatingToasts}>
      {notifications.length > 0 && (
        <Suspense fallback={null}>
          <NotificationsFlashbar />
        </Suspense>
      )}
    </div>
  );
}
