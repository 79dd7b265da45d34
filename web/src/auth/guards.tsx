import { Navigate, Outlet } from 'react-router';

import type { Role } from '../../../shared';
import { useAuth } from './auth-context';
import { fallbackPathFor } from './role-paths';

/** The guard layout: every route inside it needs a session, otherwise /login. */
export function RequireAuth() {
  const { session } = useAuth();
  if (!session) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** Routes of one role; a signed-in user of another role goes to his own side (spec §4). */
export function RequireRole({ allow }: { readonly allow: Role }) {
  const { session } = useAuth();
  if (!session) return <Navigate to="/login" replace />;
  if (session.role !== allow) return <Navigate to={fallbackPathFor(session.role)} replace />;
  return <Outlet />;
}
