import { callApi } from './api-client';

/*
 * The list routes' page readers, and the first pages read early (at start, for the signed-in page
 * about to show them): in the entry, so that such a read starts before any page's code arrives.
 * The screens use them through paged-list.ts.
 */

/** One page of a list call, as every list route answers it. */
export interface ListPage<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** Reads one page after `cursor` (none: the first page), `limit` items at most. */
export type PageReader<T> = (
  query: { readonly limit?: string; readonly cursor?: string },
  signal: AbortSignal,
) => Promise<ListPage<T>>;

/** The page readers of the list routes the screens use. */
export const READ_PAGE = {
  workflows: (async ({ limit, cursor }, signal) => {
    const { workflows, nextCursor } = await callApi('listWorkflows', { query: { limit, cursor }, signal });
    return { items: workflows, nextCursor };
  }) satisfies PageReader<unknown>,
  lawyers: (async ({ limit, cursor }, signal) => {
    const { lawyers, nextCursor } = await callApi('listLawyers', { query: { limit, cursor }, signal });
    return { items: lawyers, nextCursor };
  }) satisfies PageReader<unknown>,
  folders: (async ({ limit, cursor }, signal) => {
    const { folders, nextCursor } = await callApi('listFolders', { query: { limit, cursor }, signal });
    return { items: folders, nextCursor };
  }) satisfies PageReader<unknown>,
};

/** How long a first page read ahead of its screen (`readFirstPagesEarly`) is still taken as fresh. */
const EARLY_PAGE_MAX_AGE_MS = 10_000;

const earlyPages = new Map<PageReader<unknown>, { readonly at: number; readonly page: Promise<unknown> }>();

/**
 * Starts reading the first page of lists now, for the screen about to show them while its code is
 * still on the way (main.tsx, at start): the request runs alongside the download of that code
 * instead of after it. The screen's `usePagedList` takes the page when it mounts.
 */
export function readFirstPagesEarly(lists: readonly (keyof typeof READ_PAGE)[]): void {
  for (const list of lists) {
    const read: PageReader<unknown> = READ_PAGE[list];
    const page = read({}, new AbortController().signal);
    // A failure is the screen's to report, when it takes the page.
    page.catch(() => undefined);
    earlyPages.set(read, { at: Date.now(), page });
  }
}

/** The first page read early for this reader, once, if still fresh. */
export function takeEarlyPage<T>(read: PageReader<T>): Promise<ListPage<T>> | undefined {
  const early = earlyPages.get(read as PageReader<unknown>);
  earlyPages.delete(read as PageReader<unknown>);
  if (!early || Date.now() - early.at > EARLY_PAGE_MAX_AGE_MS) return undefined;
  return early.page as Promise<ListPage<T>>;
}
