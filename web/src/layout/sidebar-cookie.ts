import { LAYOUT } from '../../../shared';

const SECONDS_PER_DAY = 24 * 60 * 60;

/** The remembered sidebar state (cookie `sidebar_state`), or undefined when none is remembered. */
export function readSidebarCookie(): boolean | undefined {
  const prefix = `${LAYOUT.sidebarCookieName}=`;
  const value = document.cookie
    .split(';')
    .map((entry) => entry.trim())
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** Remembers the sidebar state for 7 days. */
export function writeSidebarCookie(open: boolean): void {
  const maxAge = LAYOUT.sidebarCookieMaxAgeDays * SECONDS_PER_DAY;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers we support.
  document.cookie = `${LAYOUT.sidebarCookieName}=${open}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure}`;
}
