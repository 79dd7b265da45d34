import AppLayout from '@cloudscape-design/components/app-layout-toolbar';
import Icon from '@cloudscape-design/components/icon';
import SideNavigation, { type SideNavigationProps } from '@cloudscape-design/components/side-navigation';
import TopNavigation, { type TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { Navigate, Outlet, useLocation } from 'react-router';

import { LAYOUT, type SessionUser } from '../../../shared';
import { useAuth } from '../auth/auth-context';
import { homePathFor } from '../auth/role-paths';
import { NotificationsFlashbar } from '../notifications/notifications-flashbar';
import { STRINGS } from '../strings';
import { LOGO_SRC } from './brand';
import styles from './layout.module.css';
import { activeHrefOf, NAVIGATION_MENUS, PROFILE_PATHS } from './navigation-menus';
import { useFollow } from './use-follow';
import { useSidebarState } from './use-sidebar-state';

const REM_PX = 16;
const TOP_BAR_ID = 'signed-in-top-bar';

/** The top bar's role label (spec §2): 'Administrateur' for an admin, otherwise the name or 'Avocat'. */
export function roleLabelOf(session: SessionUser): string {
  if (session.role === 'admin') return STRINGS.roles.admin;
  return session.name || STRINGS.roles.lawyer;
}

/**
 * The signed-in layout (spec §2): top bar with the product identity, the role label (hidden under
 * 768 px) and 'Déconnexion'; the role's menu in a collapsible sidebar; the toasts above the page.
 */
export function AppShell() {
  const { session, logout } = useAuth();
  const { pathname } = useLocation();
  const follow = useFollow();
  const sidebar = useSidebarState();
  if (!session) return <Navigate to="/login" replace />;

  const home = homePathFor(session.role);
  const utilities: TopNavigationProps.Utility[] = [];
  if (!sidebar.isMobile) {
    utilities.push({
      type: 'button',
      text: roleLabelOf(session),
      iconName: 'user-profile',
      href: PROFILE_PATHS[session.role],
      onFollow: follow,
    });
  }
  utilities.push({
    type: 'button',
    text: STRINGS.topNavigation.signOut,
    iconName: 'sign-out',
    onClick: logout,
  });

  const items: SideNavigationProps.Item[] = NAVIGATION_MENUS[session.role].map((link) => ({
    type: 'link',
    text: link.text,
    href: link.href,
    icon: <Icon name={link.icon} />,
  }));

  return (
    <>
      <div id={TOP_BAR_ID} className={styles.topBar}>
        <TopNavigation
          identity={{
            href: home,
            title: STRINGS.product.name,
            logo: { src: LOGO_SRC, alt: STRINGS.product.logoAlt },
            onFollow: (event) =>
              follow({ preventDefault: () => event.preventDefault(), detail: { href: home } }),
          }}
          utilities={utilities}
        />
      </div>
      <AppLayout
        headerSelector={`#${TOP_BAR_ID}`}
        navigationOpen={sidebar.open}
        onNavigationChange={({ detail }) => sidebar.setOpen(detail.open)}
        navigationWidth={LAYOUT.sidebarWidthRem * REM_PX}
        navigationCloseBehavior="collapse"
        navigationCollapsedWidth={LAYOUT.sidebarCollapsedWidthRem * REM_PX}
        navigation={
          <SideNavigation
            header={{ text: STRINGS.navigation.spaces[session.role], href: home }}
            items={items}
            activeHref={activeHrefOf(pathname)}
            collapsed={!sidebar.open}
            onFollow={follow}
          />
        }
        toolsHide
        notifications={<NotificationsFlashbar />}
        content={<Outlet />}
      />
    </>
  );
}
