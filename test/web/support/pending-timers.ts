/*
 * The timers a test's components leave behind when they are unmounted. Cloudscape's Flashbar moves
 * the focus to a new error flash on a 500 ms debounce that it never cancels: unmounted before it
 * fires, the call would land after the file's environment is torn down. Each test's pending
 * timers are cancelled once its components are unmounted.
 */
const pending = new Set<ReturnType<typeof setTimeout>>();
const realClearTimeout = globalThis.clearTimeout;

const TRACKED = Symbol('tracked');

/**
 * Wraps setTimeout and clearTimeout so that the timers still to fire are known; once per worker,
 * not once more for each file that shares it.
 */
export function trackPendingTimers(): void {
  if (TRACKED in globalThis.setTimeout) return;
  const realSetTimeout = globalThis.setTimeout;
  const tracked = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const id = realSetTimeout(
      (...callbackArgs: unknown[]) => {
        pending.delete(id);
        callback(...callbackArgs);
      },
      delay,
      ...args,
    );
    pending.add(id);
    return id;
  }) as typeof setTimeout;
  globalThis.setTimeout = Object.assign(tracked, realSetTimeout, { [TRACKED]: true });
  globalThis.clearTimeout = ((id?: ReturnType<typeof setTimeout>) => {
    if (id !== undefined) pending.delete(id);
    realClearTimeout(id);
  }) as typeof clearTimeout;
}

/** Cancels every timer still to fire: called once the test's components are unmounted. */
export function cancelPendingTimers(): void {
  // The timers' own clear: a test may have left fake timers in place.
  for (const id of pending) realClearTimeout(id);
  pending.clear();
}
