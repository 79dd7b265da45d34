import type { Role, SessionUser } from '../../../shared';
import { SESSION_STORAGE_KEY } from '../../../web/src/api/session-storage';

let counter = 0;

/** A valid session user of a role, expiring in an hour, with a token unique to the test. */
export function sessionUser(role: Role, overrides: Partial<SessionUser> = {}): SessionUser {
  counter += 1;
  return {
    licenseKey: `NOTARY-TEST${String(counter).padStart(4, '0')}`,
    role,
    name: role === 'admin' ? 'Administrateur' : 'Camille Martin',
    email: `${role}-${counter}@cabinet.example`,
    token: `token-${role}-${counter}`,
    expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    ...overrides,
  };
}

/** Puts a session in local storage as a previous visit would have left it. */
export function storeSessionOf(role: Role, overrides: Partial<SessionUser> = {}): SessionUser {
  const session = sessionUser(role, overrides);
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  return session;
}

export function storedSession(): unknown {
  const raw = localStorage.getItem(SESSION_STORAGE_KEY);
  return raw === null ? null : JSON.parse(raw);
}
