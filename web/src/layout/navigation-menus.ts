import type { IconProps } from '@cloudscape-design/components/icon';

import type { Role } from '../../../shared';
import { STRINGS } from '../strings';

export interface MenuLink {
  readonly text: string;
  readonly href: string;
  readonly icon: IconProps.Name;
}

const labels = STRINGS.navigation;

/** The sidebar menu of each role (spec §2). */
export const NAVIGATION_MENUS: Record<Role, readonly MenuLink[]> = {
  admin: [
    { text: labels.workflows, href: '/admin/workflows', icon: 'gen-ai' },
    { text: labels.lawyers, href: '/admin/lawyers', icon: 'group' },
    { text: labels.testPromo, href: '/admin/test-promo', icon: 'ticket' },
    { text: labels.settings, href: '/admin/settings', icon: 'settings' },
    { text: labels.privacy, href: '/admin/privacy', icon: 'lock-private' },
  ],
  lawyer: [
    { text: labels.welcome, href: '/lawyer/welcome', icon: 'star' },
    { text: labels.workflows, href: '/lawyer/workflows', icon: 'gen-ai' },
    { text: labels.accountConfig, href: '/lawyer/account-config', icon: 'user-profile' },
    { text: labels.googleEcosystem, href: '/lawyer/google-ecosystem', icon: 'globe' },
    { text: labels.settings, href: '/lawyer/settings', icon: 'settings' },
    { text: labels.privacy, href: '/lawyer/privacy', icon: 'lock-private' },
  ],
  notary: [
    { text: labels.welcome, href: '/notary/welcome', icon: 'star' },
    { text: labels.settings, href: '/notary/settings', icon: 'settings' },
    // Every firm manages and cancels its subscription in the app, as /privacy says.
    { text: labels.subscription, href: '/notary/subscription', icon: 'key' },
    { text: labels.workflows, href: '/notary/workflows', icon: 'gen-ai' },
    { text: labels.googleEcosystem, href: '/notary/google-ecosystem', icon: 'globe' },
    { text: labels.planning, href: '/notary/cron', icon: 'calendar' },
    { text: labels.privacy, href: '/notary/privacy', icon: 'lock-private' },
  ],
};

/** Pages reached from a menu entry without being one: the entry stays highlighted. */
const ACTIVE_HREF_ALIASES: Record<string, string> = {
  '/admin/workflows-new': '/admin/workflows',
  '/admin/notaries': '/admin/lawyers',
  '/lawyer/cron': '/lawyer/workflows',
  '/lawyer/google': '/lawyer/account-config',
};

/** The menu entry to highlight for a path. */
export function activeHrefOf(pathname: string): string {
  return ACTIVE_HREF_ALIASES[pathname] ?? pathname;
}

/** The page the role label of the top bar leads to: the user's own account or settings. */
export const PROFILE_PATHS: Record<Role, string> = {
  admin: '/admin/settings',
  lawyer: '/lawyer/account-config',
  notary: '/notary/settings',
};
