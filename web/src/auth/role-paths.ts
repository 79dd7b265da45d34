import type { Role } from '../../../shared';
import { STRINGS } from '../strings';

/** Where each role lands after sign-in, and from the landing and login pages. */
export const HOME_PATHS: Record<Role, string> = {
  admin: '/admin/workflows',
  lawyer: '/lawyer/welcome',
  notary: '/notary/welcome',
};

export function homePathFor(role: Role): string {
  return HOME_PATHS[role];
}

/**
 * Where a role-guarded route sends a signed-in user of another role, and where the not-found page
 * leads back (spec §2, §4): admin to /admin/workflows, lawyer to /lawyer/welcome, anyone else to
 * /login (which sends a signed-in user on to his home).
 */
export function fallbackPathFor(role: Role | undefined): string {
  if (role === 'admin' || role === 'lawyer') return HOME_PATHS[role];
  return '/login';
}

/** The display name when the server gives none (spec §5). */
export function defaultDisplayName(role: Role): string {
  if (role === 'admin') return STRINGS.roles.admin;
  if (role === 'lawyer') return STRINGS.roles.lawyer;
  return STRINGS.roles.other;
}
