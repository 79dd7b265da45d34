import { SessionUser } from '../../../shared';

/** The local-storage key of the signed-in user (spec §3). */
export const SESSION_STORAGE_KEY = 'session_user';

function isExpired(session: SessionUser, now: number): boolean {
  return Date.parse(session.expiresAt) <= now;
}

/**
 * The stored session, or null. A value that does not parse as a session user, or whose session has
 * expired, is discarded from the storage.
 */
export function readStoredSession(now: number = Date.now()): SessionUser | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  let parsed: ReturnType<typeof SessionUser.safeParse>;
  try {
    parsed = SessionUser.safeParse(JSON.parse(raw));
  } catch {
    clearStoredSession();
    return null;
  }
  if (!parsed.success || isExpired(parsed.data, now)) {
    clearStoredSession();
    return null;
  }
  return parsed.data;
}

export function storeSession(session: SessionUser): void {
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

export function clearStoredSession(): void {
  try {
    localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage unavailable (private mode, disabled): there is nothing to clear.
  }
}
