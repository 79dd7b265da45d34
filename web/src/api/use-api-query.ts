import { useCallback, useEffect, useRef, useState } from 'react';

/** The state of data a page loads from the API. */
export interface ApiQuery<T> {
  /** The last loaded value; undefined until the first load succeeds. */
  readonly data: T | undefined;
  /** True while a load runs (the first one and every reload). */
  readonly loading: boolean;
  /** The error of the last load, cleared by the next success. */
  readonly error: Error | undefined;
  /** Loads again; resolves when done (never rejects: the error lands in `error`). */
  readonly reload: () => Promise<void>;
  /** Replaces the value locally, after a mutation whose reply already says what changed. */
  readonly setData: (update: (current: T | undefined) => T | undefined) => void;
}

/**
 * Loads data once on mount and again on `reload()`. A load started after another wins: replies
 * that arrive late for an older load are dropped, so a slow first reply cannot overwrite a reload.
 *
 * @param load reads the data, given a signal aborted when the page unmounts
 */
export function useApiQuery<T>(load: (signal: AbortSignal) => Promise<T>): ApiQuery<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | undefined>(undefined);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);

  const reload = useCallback(async () => {
    generation.current += 1;
    const mine = generation.current;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setLoading(true);
    try {
      const value = await loadRef.current(current.signal);
      if (mine !== generation.current) return;
      setDataState(value);
      setError(undefined);
    } catch (caught) {
      if (mine !== generation.current || current.signal.aborted) return;
      setError(caught instanceof Error ? caught : new Error(String(caught)));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
    return () => {
      generation.current += 1;
      controller.current?.abort();
    };
  }, [reload]);

  const setData = useCallback((update: (current: T | undefined) => T | undefined) => {
    setDataState(update);
  }, []);

  return { data, loading, error, reload, setData };
}
