import { useAuth } from '../auth/auth-context';
import { AppShell } from './app-shell';
import { PublicLayout } from './public-layout';

/** Pages open to everyone that a signed-in user sees inside his own layout (the privacy aliases). */
export function SessionAwareLayout() {
  const { session } = useAuth();
  return session ? <AppShell /> : <PublicLayout />;
}
