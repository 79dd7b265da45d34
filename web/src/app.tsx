import { type ReactNode, StrictMode, useEffect, useRef } from 'react';

import { AppRoutes } from './app-routes';
import { AuthProvider } from './auth/auth-context';
import { CloudscapeFrench } from './cloudscape-french';
import { StepUpProvider } from './components/second-factor/step-up-dialog';
import { NotificationsProvider } from './notifications/notifications-context';

/**
 * The application inside a router: Cloudscape in French, toasts, the session, the step-up dialog of
 * sensitive actions, the routes.
 */
export function App() {
  return (
    <CloudscapeFrench>
      <NotificationsProvider>
        <AuthProvider>
          <StepUpProvider>
            <AppRoutes />
          </StepUpProvider>
        </AuthProvider>
      </NotificationsProvider>
    </CloudscapeFrench>
  );
}

/**
 * The whole tree, inside the router `withRouter` gives it (the browser's, or the static one of the
 * build's pre-rendering): one definition, so that the pre-rendered markup is the tree the browser
 * hydrates, node for node.
 */
export function AppRoot({
  children: withRouter,
  onMounted,
}: {
  readonly children: (app: ReactNode) => ReactNode;
  /** Runs once the tree is on the page (hydrated, for a pre-rendered page). */
  readonly onMounted?: () => void;
}) {
  return (
    <StrictMode>
      {withRouter(<App />)}
      {onMounted ? <Mounted onMounted={onMounted} /> : null}
    </StrictMode>
  );
}

/** Calls back once mounted: an effect runs after the whole tree before it is committed. */
function Mounted({ onMounted }: { readonly onMounted: () => void }) {
  const called = useRef(false);
  useEffect(() => {
    if (called.current) return;
    called.current = true;
    onMounted();
  }, [onMounted]);
  return null;
}
