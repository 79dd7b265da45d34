import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';

import { loadCloudscapeFrench } from '../cloudscape-french';
import { useNotificationList } from '../notifications/notifications-context';
import styles from './layout.module.css';

/**
 * The Flashbar's code (with its animations, about 30 kB compressed) arrives with the first toast:
 * /login shows none until the visitor acts, and must load within its budget.
 */
const NotificationsFlashbar = lazy(() =>
  Promise.all([import('../notifications/notifications-flashbar'), loadCloudscapeFrench()]).then(
    ([module]) => ({
      default: module.NotificationsFlashbar,
    }),
  ),
);

function FloatingToasts() {
  const notifications = useNotificationList();
  if (notifications.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsFlashbar />
    </Suspense>
  );
}

/**
 * A page made of one centred card (login, payment success), with the toasts floating above it.
 * Kept apart from the public and signed-in layouts so that /login loads no app layout.
 */
export function CardLayout() {
  return (
    <main className={styles.cardPage}>
      <div className={styles.floatingToasts}>
        <FloatingToasts />
      </div>
      <div className={styles.card}>
        <Outlet />
      </div>
    </main>
  );
}
