import Button from '@cloudscape-design/components/button';
import { Outlet } from 'react-router';

import { useAuth } from '../auth/auth-context';
import { homePathFor } from '../auth/role-paths';
import { STRINGS } from '../strings';
import { LOGO_SRC } from './brand';
import { FloatingToasts } from './floating-toasts';
import styles from './layout.module.css';
import { useFollow } from './use-follow';

/**
 * The public pages' top bar: the product's logo and name, 'Découvrir' and 'Se connecter' (or the
 * user's space). Laid out here rather than with TopNavigation, which on a phone folds 'Se
 * connecter' into an overflow menu and drops the product name: both stay, 'Découvrir' (linked from
 * the pages themselves) gives way under 768 px, by CSS, so that the pre-rendered bar is the one
 * the application takes over at any width.
 */
export function PublicTopNavigation() {
  const { session } = useAuth();
  const follow = useFollow();
  const [text, href] = session
    ? [STRINGS.topNavigation.mySpace, homePathFor(session.role)]
    : [STRINGS.topNavigation.signIn, '/login'];
  return (
    <header className={`${styles.topBar} ${styles.publicBar}`}>
      <a
        className={styles.identity}
        href="/"
        onClick={(event) => follow({ preventDefault: () => event.preventDefault(), detail: { href: '/' } })}
      >
        <img className={styles.logo} src={LOGO_SRC} alt="" />
        <span className={styles.productName}>{STRINGS.product.name}</span>
      </a>
      <div className={styles.topBarEnd}>
        <span className={styles.wideOnly}>
          <Button variant="link" href="/discover" onFollow={follow}>
            {STRINGS.topNavigation.discover}
          </Button>
        </span>
        <Button variant="primary" href={href} onFollow={follow}>
          {text}
        </Button>
      </div>
    </header>
  );
}

/**
 * Public pages: the public top bar above a full-width page, with the toasts. No app layout: these
 * pages have no navigation or tools panel, and its code (about 50 kB compressed) would lay the
 * pre-rendered page out again once it ran, moving the text a visitor is already reading.
 */
export function PublicLayout() {
  return (
    <>
      <div className={styles.stickyBar}>
        <PublicTopNavigation />
      </div>
      <main className={styles.publicMain}>
        <div className={styles.publicPage}>
          <FloatingToasts />
          <Outlet />
        </div>
      </main>
    </>
  );
}
