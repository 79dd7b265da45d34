import { readStoredSession } from '../auth/session-storage';
import { callApi } from './api-client';

/*
 * The list routes' page readers, and the first pages web/public/first-reads.js asked for before the
 * application started. The screens use them through paged-list.ts.
 */

/** One page of a list call, as every list route answers it. */
export interface ListPage<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/**
 * Reads one page after `cursor` (none: the first page), `limit` items at most; `sent`: the request
 * of that page already sent (web/public/first-reads.js).
 */
export type PageReader<T> = (
  query: { readonly limit?: string; readonly cursor?: string; readonly sent?: Promise<Response> },
  signal: AbortSignal,
) => Promise<ListPage<T>>;

/** The page readers of the list routes the screens use. */
export const READ_PAGE = {
  workflows: (async ({ limit, cursor, sent }, signal) => {
    const { workflows, nextCursor } = await callApi('listWorkflows', {
      query: { limit, cursor },
      signal,
      sent,
    });
    return { items: workflows, nextCursor };
  }) satisfies PageReader<unknown>,
  lawyers: (async ({ limit, cursor, sent }, signal) => {
    const { lawyers, nextCursor } = await callApi('listLawyers', { query: { limit, cursor }, signal, sent });
    return { items: lawyers, nextCursor };
  }) satisfies PageReader<unknown>,
  folders: (async ({ limit, cursor, sent }, signal) => {
    const { folders, nextCursor } = await callApi('listFolders', { query: { limit, cursor }, signal, sent });
    return { items: folders, nextCursor };
  }) satisfies PageReader<unknown>,
};

/** What web/public/first-reads.js sent as index.html was read, if it did. */
interface FirstReads {
  readonly at: number;
  readonly token: string;
  /** The first page's request of each list, by its name in READ_PAGE; each taken once. */
  readonly replies: Partial<Record<keyof typeof READ_PAGE, Promise<Response>>>;
}

/** How long a first page asked for by first-reads.js is still taken as fresh. */
const EARLY_PAGE_MAX_AGE_MS = 10_000;

/**
 * The first page of a list as first-reads.js asked for it (before the application's code was even
 * compiled), once, if still fresh and asked with the session still stored (a visitor signed out or
 * in again meanwhile reads afresh). The reply is checked as any other (`callApi`).
 */
export function takeEarlyPage<T>(read: PageReader<T>): Promise<ListPage<T>> | undefined {
  const early = (window as { firstReads?: FirstReads }).firstReads;
  const list = (Object.keys(READ_PAGE) as (keyof typeof READ_PAGE)[]).find(
    (name) => READ_PAGE[name] === read,
  );
  if (!early || !list || Date.now() - early.at > EARLY_PAGE_MAX_AGE_MS) return undefined;
  const sent = early.replies[list];
  delete early.replies[list];
  if (!sent || early.token !== readStoredSession()?.token) return undefined;
  return read({ sent }, new AbortController().signal);
}
