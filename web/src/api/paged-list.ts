import { useCallback, useEffect, useRef, useState } from 'react';

import { LIST_PAGE } from '../../../shared';
import { type PageReader, settledEarlyPage, takeEarlyPage } from './list-pages';

export { type ListPage, type PageReader, READ_PAGE } from './list-pages';

/**
 * Every page of a list, one request after the other, for the screens whose lists are small and
 * whose counts must be exact before they show (a lawyer's own workflows).
 */
export async function readAllPages<T>(read: PageReader<T>, signal: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    // The first page at the server's default size, the next ones at the largest.
    const page = await read(cursor ? { limit: String(LIST_PAGE.max), cursor } : {}, signal);
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/** Resolves once the browser has drawn what was just rendered: after the next frame's paint. */
function afterNextPaint(): Promise<void> {
  // A hidden page draws nothing, and its animation frames wait until it shows: no wait then.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** A list loaded page after page: what is loaded so far, and whether that is all of it. */
export interface PagedList<T> {
  /** The items loaded so far, in the server's order; undefined until the first page is in. */
  readonly data: T[] | undefined;
  /** True once the last page is in: counts over `data` are then the list's counts. */
  readonly complete: boolean;
  /** True while a page is being read. */
  readonly loading: boolean;
  /** The error of the last read; loading stops there (what is loaded stays). */
  readonly error: Error | undefined;
  /** Reads the list again from its first page. */
  readonly reload: () => Promise<void>;
  /** Replaces the loaded items locally, after a mutation whose reply says what changed. */
  readonly setData: (update: (current: T[] | undefined) => T[] | undefined) => void;
}

/**
 * Loads a list a page at a time: the first page (a default-size page) shows as soon as it is in,
 * the next ones (the largest pages) follow in the background until the last, each once the one
 * before is drawn, so a screen is usable at once while its counts and search reach the whole list
 * within a few requests. A reload or an unmount drops the pages still coming.
 */
export function usePagedList<T>(read: PageReader<T>): PagedList<T> {
  // A first page first-reads.js asked for and already in shows in the first render.
  const [data, setDataState] = useState<T[] | undefined>(() => settledEarlyPage(read)?.items);
  const [complete, setComplete] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | undefined>(undefined);
  const readRef = useRef(read);
  readRef.current = read;
  const controller = useRef<AbortController | null>(null);

  const reload = useCallback(async () => {
    controller.current?.abort();
    const mine = new AbortController();
    controller.current = mine;
    setLoading(true);
    setComplete(false);
    let cursor: string | undefined;
    let first = true;
    try {
      do {
        // The first page at the server's default size (LIST_PAGE.default), the next at the largest.
        const page = await ((first ? takeEarlyPage(readRef.current) : undefined) ??
          readRef.current(cursor ? { limit: String(LIST_PAGE.max), cursor } : {}, mine.signal));
        if (mine.signal.aborted) return;
        // The updater may run later, when `first` has moved on: it reads its own copy.
        const replaces = first;
        setDataState((current) => (replaces ? page.items : [...(current ?? []), ...page.items]));
        setError(undefined);
        first = false;
        cursor = page.nextCursor ?? undefined;
        // The next page is asked once this one is drawn: the first cards show before the rest of
        // the list is read (its replies and its renders would otherwise share the CPU with them).
        if (cursor) await afterNextPaint();
        if (mine.signal.aborted) return;
      } while (cursor);
      setComplete(true);
    } catch (caught) {
      if (mine.signal.aborted) return;
      setError(caught instanceof Error ? caught : new Error(String(caught)));
    } finally {
      if (controller.current === mine) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
    return () => controller.current?.abort();
  }, [reload]);

  const setData = useCallback((update: (current: T[] | undefined) => T[] | undefined) => {
    setDataState(update);
  }, []);

  return { data, complete, loading, error, reload, setData };
}
