import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';

import { MESSAGES, type SecondFactorStep, type SessionUser, type VerifyLicenseReply } from '../../../shared';
import { onSessionEnded } from '../api/api-client';
import { ApiHttpError, ApiNetworkError, ApiRequestError } from '../api/api-errors';
import { signOut, verifyLicense } from '../api/session';
import {
  clearStoredSession,
  readStoredSession,
  SESSION_STORAGE_KEY,
  storeSession,
} from '../api/session-storage';
import { useNotifications } from '../notifications/notifications-context';
import { defaultDisplayName, homePathFor } from './role-paths';

/**
 * A licence key that was right but whose licence must pass its second factor: the "second factor
 * pending" token (accepted only by the second-factor calls) and what the second step asks.
 */
export interface PendingSignIn {
  readonly licenseKey: string;
  readonly token: string;
  readonly step: SecondFactorStep;
}

/**
 * The outcome of a sign-in: the session; the second step to go through; or the French error
 * already shown as a toast.
 */
export type LoginResult =
  | { readonly ok: true; readonly session: SessionUser }
  | { readonly ok: false; readonly pending: PendingSignIn }
  | { readonly ok: false; readonly pending?: undefined; readonly error: string };

export interface Auth {
  readonly session: SessionUser | null;
  readonly isAuthenticated: boolean;
  readonly isAdmin: boolean;
  readonly isLawyer: boolean;
  /** Checks the licence key; on success stores the session, greets and goes to the role's home. */
  login(licenseKey: string): Promise<LoginResult>;
  /** Finishes a sign-in whose second factor passed, with the full session the server gave. */
  completeLogin(licenseKey: string, reply: VerifyLicenseReply): LoginResult;
  /** Ends the session on the server (failure ignored) and here, then goes to /login. */
  logout(): void;
  /**
   * Brings the stored session in line with the saved profile (spec §4: when the profile e-mail
   * differs from the session e-mail, the session is updated), and its display name.
   */
  updateProfile(changes: Pick<SessionUser, 'email' | 'name'>): void;
}

const AuthContext = createContext<Auth | null>(null);

/** setTimeout cannot wait longer than this; sessions are much shorter anyway. */
const MAX_TIMEOUT_MS = 2_147_483_647;

function sessionOf(licenseKey: string, reply: VerifyLicenseReply): SessionUser | null {
  if (!reply.licenseType || !reply.token || !reply.expiresAt) return null;
  return {
    licenseKey: licenseKey.trim(),
    role: reply.licenseType,
    name: reply.displayName || defaultDisplayName(reply.licenseType),
    email: reply.userEmail ?? '',
    token: reply.token,
    expiresAt: reply.expiresAt,
  };
}

function loginErrorOf(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  // 4xx replies (a refused key, too many attempts) carry the server's French text.
  if (error instanceof ApiHttpError && error.status < 500 && error.serverMessage) return error.serverMessage;
  if (error instanceof ApiHttpError || error instanceof ApiNetworkError) return MESSAGES.login.verifyFailed;
  return MESSAGES.login.unexpected;
}

/** The session of the signed-in user, restored from local storage at start. Must sit inside the router. */
export function AuthProvider({ children }: { readonly children: ReactNode }) {
  const [session, setSession] = useState<SessionUser | null>(() => readStoredSession());
  const navigate = useNavigate();
  const notifications = useNotifications();

  const endSession = useCallback(
    (message: string) => {
      clearStoredSession();
      setSession(null);
      notifications.error(message);
      navigate('/login', { replace: true });
    },
    [navigate, notifications],
  );

  // A 401 on a protected call: the session the call used is over, unless another one replaced it.
  useEffect(
    () =>
      onSessionEnded((token, message) => {
        if (readStoredSession()?.token === token) endSession(message);
      }),
    [endSession],
  );

  // The session ends by itself at its absolute expiry.
  useEffect(() => {
    if (!session) return;
    const remaining = Math.min(Date.parse(session.expiresAt) - Date.now(), MAX_TIMEOUT_MS);
    const timer = setTimeout(() => endSession(MESSAGES.session.required), Math.max(remaining, 0));
    return () => clearTimeout(timer);
  }, [session, endSession]);

  // Another tab signed in or out.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === SESSION_STORAGE_KEY) setSession(readStoredSession());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const complete = useCallback(
    (licenseKey: string, reply: VerifyLicenseReply): LoginResult => {
      const fail = (error: string): LoginResult => {
        notifications.error(error);
        return { ok: false, error };
      };
      const next = sessionOf(licenseKey, reply);
      if (!next) return fail(MESSAGES.login.unexpected);
      try {
        storeSession(next);
      } catch {
        return fail(MESSAGES.login.unexpected);
      }
      setSession(next);
      notifications.success(MESSAGES.login.signedInAs(next.name));
      navigate(homePathFor(next.role), { replace: true });
      return { ok: true, session: next };
    },
    [navigate, notifications],
  );

  const login = useCallback(
    async (licenseKey: string): Promise<LoginResult> => {
      const fail = (error: string): LoginResult => {
        notifications.error(error);
        return { ok: false, error };
      };
      let reply: VerifyLicenseReply;
      try {
        reply = await verifyLicense(licenseKey);
      } catch (error) {
        return fail(loginErrorOf(error));
      }
      if (!reply.valid) return fail(reply.error || MESSAGES.login.invalidKey);
      if (reply.secondFactor && reply.token)
        return {
          ok: false,
          pending: { licenseKey: licenseKey.trim(), token: reply.token, step: reply.secondFactor },
        };
      return complete(licenseKey, reply);
    },
    [complete, notifications],
  );

  const logout = useCallback(() => {
    const ending = readStoredSession();
    clearStoredSession();
    setSession(null);
    if (ending) {
      signOut(ending.token).catch(() => {
        // The session is gone here whatever the server says; it also expires there by itself.
      });
    }
    notifications.info(MESSAGES.login.signedOut);
    navigate('/login', { replace: true });
  }, [navigate, notifications]);

  const updateProfile = useCallback((changes: Pick<SessionUser, 'email' | 'name'>) => {
    const current = readStoredSession();
    if (!current || (current.email === changes.email && current.name === changes.name)) return;
    const next = { ...current, ...changes };
    storeSession(next);
    setSession(next);
  }, []);

  const value = useMemo<Auth>(
    () => ({
      session,
      isAuthenticated: session !== null,
      isAdmin: session?.role === 'admin',
      isLawyer: session?.role === 'lawyer',
      login,
      completeLogin: complete,
      logout,
      updateProfile,
    }),
    [session, login, complete, logout, updateProfile],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The login state: `const { session, isAdmin, login, logout } = useAuth()`. */
export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside AuthProvider');
  return auth;
}
