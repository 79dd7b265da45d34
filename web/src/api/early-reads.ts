import { callApi } from './api-client';
import { ADMIN_WORKFLOWS_PAGE_SIZE, KEYS } from './keys';
import { queryClient } from './query-client';
import { readStoredSession } from './session-storage';

/*
 * What web/public/first-reads.js asked for as index.html was read, before the application's code
 * was even compiled: taken into the query cache as the application starts, so that the page's first
 * render draws them (its queries find them fresh) instead of asking again.
 */

/** What first-reads.js sent, if it did. */
interface FirstReads {
  readonly at: number;
  readonly token: string;
  readonly replies: Partial<Record<EarlyRead, Promise<Response>>>;
}

/** The reads first-reads.js may send, by name. */
export type EarlyRead = 'workflows' | 'counts';

/** Their paths, as first-reads.js writes them (test/web/admin-workflows/early-first-page.test.tsx holds them together). */
export const EARLY_READ_PATHS: Readonly<Record<EarlyRead, string>> = {
  workflows: `/api/workflows?limit=${ADMIN_WORKFLOWS_PAGE_SIZE}`,
  counts: '/api/counts',
};

/** The first page of automations /admin/workflows shows: the query its hook makes. */
export const FIRST_ADMIN_WORKFLOWS_QUERY = { limit: ADMIN_WORKFLOWS_PAGE_SIZE, q: '' } as const;

/** How long an early reply is still taken as fresh. */
const EARLY_READ_MAX_AGE_MS = 10_000;

/**
 * Starts the cache's queries of what first-reads.js asked for, each reading that reply (checked as
 * any other with the route's schema) instead of asking again, when it is still fresh and was asked
 * with the session still stored; the page's queries, of the same keys, take them over in flight.
 */
export function takeEarlyReads(): void {
  const early = (window as { firstReads?: FirstReads }).firstReads;
  delete (window as { firstReads?: FirstReads }).firstReads;
  if (!early || Date.now() - early.at > EARLY_READ_MAX_AGE_MS) return;
  if (early.token !== readStoredSession()?.token) return;
  const { workflows, counts } = early.replies;
  // A failed read is the page's to report: its query fails and is retried as any other.
  if (workflows) {
    void queryClient.prefetchInfiniteQuery({
      queryKey: KEYS.workflows(FIRST_ADMIN_WORKFLOWS_QUERY),
      queryFn: () => callApi('listWorkflows', { sent: workflows }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      retry: false,
    });
  }
  if (counts) {
    void queryClient.prefetchQuery({
      queryKey: KEYS.counts,
      queryFn: () => callApi('directoryCounts', { sent: counts }),
      retry: false,
    });
  }
}
