/**
 * Runs `work` on every item with at most `limit` at once and returns the results in item order.
 * The first failure is thrown once every started item has settled, so nothing runs on unobserved.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
  return results;
}

/** Splits a list into consecutive chunks of at most `size` items. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** A place in a {@link TurnQueue}. */
export interface Turn {
  /** Resolves once every place taken before this one has been left. */
  readonly ready: Promise<void>;
  /** Hands the turn on to the next place; calling it again does nothing. */
  leave(): void;
}

/**
 * Turns in the order they were taken: places taken one after the other get their turn one after
 * the other, whatever order their earlier work ends in. A place left before its turn came (work
 * that ended early) passes the turn on as soon as it comes.
 */
export class TurnQueue {
  private last: Promise<void> = Promise.resolve();

  take(): Turn {
    let leave: () => void = () => undefined;
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const ready = this.last;
    this.last = ready.then(() => left);
    return { ready, leave };
  }
}
