import AppLayout from '@cloudscape-design/components/app-layout';
import TopNavigation, { type TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { Outlet } from 'react-router';

import { useAuth } from '../auth/auth-context';
import { homePathFor } from '../auth/role-paths';
import { NotificationsFlashbar } from '../notifications/notifications-flashbar';
import { STRINGS } from '../strings';
import { LOGO_SRC } from './brand';
import styles from './layout.module.css';
import { useFollow } from './use-follow';

const TOP_BAR_ID = 'public-top-bar';

/** The public pages' top bar: identity, 'Découvrir' and 'Se connecter' (or the user's space). */
export function PublicTopNavigation() {
  const { session } = useAuth();
  const follow = useFollow();
  const utilities: TopNavigationProps.Utility[] = [
    { type: 'button', text: STRINGS.topNavigation.discover, href: '/discover', onFollow: follow },
    session
      ? {
          type: 'button',
          variant: 'primary-button',
          text: STRINGS.topNavigation.mySpace,
          href: homePathFor(session.role),
          onFollow: follow,
        }
      : {
          type: 'button',
          variant: 'primary-button',
          text: STRINGS.topNavigation.signIn,
          href: '/login',
          onFollow: follow,
        },
  ];
  return (
    <TopNavigation
      identity={{
        href: '/',
        title: STRINGS.product.name,
        logo: { src: LOGO_SRC, alt: STRINGS.product.logoAlt },
        onFollow: (event) => follow({ preventDefault: () => event.preventDefault(), detail: { href: '/' } }),
      }}
      utilities={utilities}
    />
  );
}

/** Public pages: the public top bar above a full-width page, with the toasts. */
export function PublicLayout() {
  return (
    <>
      <div id={TOP_BAR_ID} className={styles.topBar}>
        <PublicTopNavigation />
      </div>
      <AppLayout
        headerSelector={`#${TOP_BAR_ID}`}
        navigationHide
        toolsHide
        notifications={<NotificationsFlashbar />}
        content={<Outlet />}
      />
    </>
  );
}
