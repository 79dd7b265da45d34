import AppLayout from '@cloudscape-design/components/app-layout';
import Button from '@cloudscape-design/components/button';
import { Outlet } from 'react-router';
import { ServerStateProvider } from '../api/query-client';
import { useAuth } from '../auth/auth-context';
import { homePathFor } from '../auth/role-paths';
import { NotificationsFlashbar } from '../notifications/notifications-flashbar';
import { STRINGS } from '../strings';
import { LOGO_SRC } from './brand';
import styles from './layout.module.css';
import { useFollow } from './use-follow';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from './use-media-query';

const TOP_BAR_ID = 'public-top-bar';

/**
 * The public pages' top bar: the product's logo and name, 'Découvrir' and 'Se connecter' (or the
 * user's space). Laid out here rather than with TopNavigation, which on a phone folds 'Se
 * connecter' into an overflow menu and drops the product name: both stay, 'Découvrir' (linked from
 * the pages themselves) gives way under 768 px.
 */
export function PublicTopNavigation() {
  const { session } = useAuth();
  const follow = useFollow();
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY);
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
        {!isMobile && (
          <Button variant="link" href="/discover" onFollow={follow}>
            {STRINGS.topNavigation.discover}
          </Button>
        )}
        <Button variant="primary" href={href} onFollow={follow}>
          {text}
        </Button>
      </div>
    </header>
  );
}

/** Public pages: the public top bar above a full-width page, with the toasts. */
export function PublicLayout() {
  return (
    <>
      <div id={TOP_BAR_ID} className={styles.stickyBar}>
        <PublicTopNavigation />
      </div>
      <AppLayout
        headerSelector={`#${TOP_BAR_ID}`}
        navigationHide
        toolsHide
        notifications={<NotificationsFlashbar />}
        content={
          <ServerStateProvider>
            <Outlet />
          </ServerStateProvider>
        }
      />
    </>
  );
}
