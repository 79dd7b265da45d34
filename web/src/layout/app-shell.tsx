import AppLayout from '@cloudscape-design/components/app-layout-toolbar';
import Button from '@cloudscape-design/components/button';
import Icon from '@cloudscape-design/components/icon';
import SideNavigation, { type SideNavigationProps } from '@cloudscape-design/components/side-navigation';
import { Navigate, Outlet, useLocation } from 'react-router';

import { LAYOUT, type SessionUser } from '../../../shared';
import { ServerStateProvider } from '../api/query-client';
import { useAuth } from '../auth/auth-context';
import { homePathFor } from '../auth/role-paths';
import { NotificationsFlashbar } from '../notifications/notifications-flashbar';
import { STRINGS } from '../strings';
import { LOGO_SRC } from './brand';
import styles from './layout.module.css';
import { activeHrefOf, NAVIGATION_MENUS, PROFILE_PATHS } from './navigation-menus';
import { useFollow } from './use-follow';
import { type SidebarState, useSidebarState } from './use-sidebar-state';

const REM_PX = 16;
const TOP_BAR_ID = 'signed-in-top-bar';

/** The top bar's role label (spec §2): 'Administrateur' for an admin, otherwise the name or 'Avocat'. */
export function roleLabelOf(session: SessionUser): string {
  if (session.role === 'admin') return STRINGS.roles.admin;
  return session.name || STRINGS.roles.lawyer;
}

/**
 * The signed-in top bar as spec §2 draws it: the sidebar toggle on the left, the logo in the
 * centre, the role label (hidden under 768 px) and 'Déconnexion' on the right. Cloudscape's
 * TopNavigation puts its identity on the left and has no slot for a toggle, so the bar is laid out
 * here with Cloudscape buttons; the toggle is the sidebar's only control.
 */
function TopBar({
  session,
  sidebar,
  onSignOut,
}: {
  session: SessionUser;
  sidebar: SidebarState;
  onSignOut: () => void;
}) {
  const follow = useFollow();
  const home = homePathFor(session.role);
  return (
    <header id={TOP_BAR_ID} className={styles.topBar}>
      <div className={styles.topBarStart}>
        <Button
          variant="icon"
          iconName="menu"
          ariaLabel={sidebar.open ? STRINGS.topNavigation.closeMenu : STRINGS.topNavigation.openMenu}
          ariaExpanded={sidebar.open}
          onClick={() => sidebar.setOpen(!sidebar.open)}
        />
      </div>
      <a
        className={styles.identity}
        href={home}
        onClick={(event) => follow({ preventDefault: () => event.preventDefault(), detail: { href: home } })}
      >
        <img className={styles.logo} src={LOGO_SRC} alt="" />
        <span className={styles.productName}>{STRINGS.product.name}</span>
      </a>
      <div className={styles.topBarEnd}>
        {!sidebar.isMobile && (
          <Button variant="link" iconName="user-profile" href={PROFILE_PATHS[session.role]} onFollow={follow}>
            {roleLabelOf(session)}
          </Button>
        )}
        {sidebar.isMobile ? (
          <Button
            variant="icon"
            iconName="sign-out"
            ariaLabel={STRINGS.topNavigation.signOut}
            onClick={onSignOut}
          />
        ) : (
          <Button variant="link" iconName="sign-out" onClick={onSignOut}>
            {STRINGS.topNavigation.signOut}
          </Button>
        )}
      </div>
    </header>
  );
}

/**
 * The signed-in layout (spec §2): the top bar, the role's menu in a collapsible sidebar (toggled
 * from the top bar or with Ctrl/Cmd+B), the toasts above the page. The layout's own toolbar row
 * and in-panel collapse button are left out: one toggle, in the top bar.
 */
export function AppShell() {
  const { session, logout } = useAuth();
  const { pathname } = useLocation();
  const follow = useFollow();
  const sidebar = useSidebarState();
  if (!session) return <Navigate to="/login" replace />;

  const home = homePathFor(session.role);
  const items: SideNavigationProps.Item[] = NAVIGATION_MENUS[session.role].map((link) => ({
    type: 'link',
    text: link.text,
    href: link.href,
    icon: <Icon name={link.icon} />,
  }));

  return (
    <>
      <TopBar session={session} sidebar={sidebar} onSignOut={logout} />
      <div className={styles.shell}>
        <AppLayout
          headerSelector={`#${TOP_BAR_ID}`}
          ariaLabels={{ navigation: STRINGS.navigation.landmark }}
          navigationOpen={sidebar.open}
          onNavigationChange={({ detail }) => sidebar.setOpen(detail.open)}
          navigationTriggerHide
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
          content={
            <ServerStateProvider>
              <Outlet />
            </ServerStateProvider>
          }
        />
      </div>
    </>
  );
}
