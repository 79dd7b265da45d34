import { Outlet } from 'react-router';

import { FloatingToasts } from './floating-toasts';
import styles from './layout.module.css';

/**
 * A page made of one centred card (login, payment success), with the toasts floating above it.
 * Kept apart from the public and signed-in layouts so that /login loads no app layout.
 */
export function CardLayout() {
  return (
    <main className={styles.cardPage}>
      <FloatingToasts />
      <div className={styles.card}>
        <Outlet />
      </div>
    </main>
  );
}
