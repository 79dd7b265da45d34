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

/** The name in READ_PAGE of a page reader, if it is one of them. */
function listOf(read: PageReader<unknown>): keyof typeof READ_PAGE | undefined {
  return (Object.keys(READ_PAGE) as (keyof typeof READ_PAGE)[]).find((name) => READ_PAGE[name] === read);
}

/** A first page first-reads.js asked for, being checked; `settled` once it is in and right. */
interface CheckedPage {
  readonly reply: Promise<ListPage<unknown>>;
  settled?: ListPage<unknown>;
}

/** The first pages `checkEarlyPages` started to check, by list, until a screen takes them. */
const checking = new Map<keyof typeof READ_PAGE, CheckedPage>();

/**
 * The reply first-reads.js asked for of `list`, checked as any other (`callApi`), once, if still
 * fresh and asked with the session still stored (a visitor signed out or in again meanwhile reads
 * afresh).
 */
function checkEarlyReply(list: keyof typeof READ_PAGE): Promise<ListPage<unknown>> | undefined {
  const early = (window as { firstReads?: FirstReads }).firstReads;
  if (!early || Date.now() - early.at > EARLY_PAGE_MAX_AGE_MS) return undefined;
  const sent = early.replies[list];
  delete early.replies[list];
  if (!sent || early.token !== readStoredSession()?.token) return undefined;
  return READ_PAGE[list]({ sent }, new AbortController().signal);
}

/**
 * Starts checking every first page first-reads.js asked for, as the application starts: a page
 * in by a screen's first render is drawn in that render (`settledEarlyPage`), not after a render
 * of placeholders.
 */
export function checkEarlyPages(): void {
  for (const list of Object.keys(READ_PAGE) as (keyof typeof READ_PAGE)[]) {
    const reply = checkEarlyReply(list);
    if (!reply) continue;
    const checked: CheckedPage = { reply };
    // A failure is the screen's to report, when it takes the reply.
    reply.then(
      (page) => {
        checked.settled = page;
      },
      () => undefined,
    );
    checking.set(list, checked);
  }
}

/** The first page of a list first-reads.js asked for, if it is already in and right (not taken). */
export function settledEarlyPage<T>(read: PageReader<T>): ListPage<T> | undefined {
  const list = listOf(read as PageReader<unknown>);
  return list ? (checking.get(list)?.settled as ListPage<T> | undefined) : undefined;
}

/**
 * The first page of a list as first-reads.js asked for it (before the application's code was even
 * compiled), once: the reply `checkEarlyPages` checks, or else checked now.
 */
export function takeEarlyPage<T>(read: PageReader<T>): Promise<ListPage<T>> | undefined {
  const list = listOf(read as PageReader<unknown>);
  if (!list) return undefined;
  const checked = checking.get(list);
  checking.delete(list);
  return (checked?.reply ?? checkEarlyReply(list)) as Promise<ListPage<T>> | undefined;
}
