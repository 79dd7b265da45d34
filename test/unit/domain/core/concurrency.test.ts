import { describe, expect, it } from 'vitest';

import { chunks, mapWithConcurrency } from '../../../../functions/domain/core/concurrency';

describe('mapWithConcurrency', () => {
  it('keeps at most the limit running and returns results in order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7, 8, 9], 3, async (value) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return value * 10;
    });

    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(most).toBe(3);
  });

  it('throws the first failure once started work has settled', async () => {
    const settled: number[] = [];
    const run = mapWithConcurrency([1, 2, 3], 3, async (value) => {
      await new Promise((resolve) => setImmediate(resolve));
      settled.push(value);
      if (value === 1) throw new Error('un');
      return value;
    });

    await expect(run).rejects.toThrow('un');
    expect(settled.sort()).toEqual([1, 2, 3]);
  });

  it('handles no items', async () => {
    expect(await mapWithConcurrency([], 5, async () => 1)).toEqual([]);
  });
});

describe('chunks', () => {
  it('splits into batches of at most the size', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 10)).toEqual([]);
  });
});
