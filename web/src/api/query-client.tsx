import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';

import { useNotifications } from '../notifications/notifications-context';
import { ApiHttpError, ApiNetworkError, endedSession } from './api-errors';

/**
 * The one server-state layer of the SPA (TanStack Query): every read of the API is a query of this
 * client, every change a mutation that invalidates (or updates) the queries it affects.
 */

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorMessage`: the toast a failed query or mutation shows (none: the screen says it inline). */
    queryMeta: { readonly errorMessage?: string };
    mutationMeta: { readonly errorMessage?: string };
  }
}

/**
 * One retry, for what may pass a second later (the network, a 5xx, a 429); a refusal (4xx) is
 * the answer and is never asked again.
 */
export function retryOnce(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (error instanceof ApiNetworkError) return true;
  return error instanceof ApiHttpError && (error.status >= 500 || error.status === 429);
}

type ErrorListener = (message: string) => void;
let errorListener: ErrorListener | undefined;

/** A failure with a message to show: the toast, unless the session ended (the auth provider says so). */
function announce(error: unknown, message: string | undefined) {
  if (message && !endedSession(error)) errorListener?.(message);
}

/** The client, one for the app: what a page reads stays 30 s before it is read again on its next use. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: retryOnce, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
  queryCache: new QueryCache({ onError: (error, query) => announce(error, query.meta?.errorMessage) }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => announce(error, mutation.meta?.errorMessage),
  }),
});

/** The toasts of failed queries and mutations, through the layout's notifications. */
function ErrorToasts() {
  const notifications = useNotifications();
  useEffect(() => {
    errorListener = notifications.error;
    return () => {
      if (errorListener === notifications.error) errorListener = undefined;
    };
  }, [notifications]);
  return null;
}

/** The server state of the pages inside: a provider in each layout that is not /login's. */
export function ServerStateProvider({ children }: { readonly children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorToasts />
      {children}
    </QueryClientProvider>
  );
}
