import { randomUUID } from 'node:crypto';

import {
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  DeleteCommand,
  PutCommand,
} from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { ADMIN_LIST_SHARDS, listPartitions, shardOf } from '../../../../functions/data/table/keys';
import { encodeCursor } from '../../../../functions/data/table/page-cursor';
import {
  pageShardedList,
  readShardedList,
  type ShardedList,
} from '../../../../functions/data/table/sharded-list';
import { InvalidCursorError } from '../../../../functions/domain/core/errors';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';

/** An item of a test list: the GSI1 partition (shard) it is written to, and its sort key. */
interface Entry {
  readonly shard: number;
  readonly sortKey: string;
}

/** DynamoDB's order of string keys: their UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const newestFirst = (keys: readonly string[]) => [...keys].sort(byBytes).reverse();

/**
 * Sort keys as the lists write them (`<ISO time>#<id>`), ids mixing case, digits, `-` and `_`
 * (which `localeCompare` orders unlike DynamoDB), often in the same minute.
 */
const sortKeyArb = fc
  .tuple(
    fc.integer({ min: 0, max: 40 }),
    fc.string({ unit: fc.constantFrom(...'aAbZz09-_'), minLength: 1, maxLength: 6 }),
  )
  .map(([minute, id]) => `${new Date(Date.UTC(2026, 10, 22, 9, minute)).toISOString()}#${id}`);

/**
 * Up to `max` items with distinct sort keys over `shards` partitions, most in the first: a page
 * then often needs more of one shard than its share, and the pager must read it further.
 */
const entriesArb = (shards: number, max: number) =>
  fc.uniqueArray(
    fc.record({
      shard: fc.oneof(
        { arbitrary: fc.constant(0), weight: 4 },
        { arbitrary: fc.integer({ min: 0, max: shards - 1 }), weight: 1 },
      ),
      sortKey: sortKeyArb,
    }),
    { maxLength: max, size: 'max', selector: (entry) => entry.sortKey },
  );

/** A shard count, items spread over that many shards, and what else a property draws. */
const shardedArb = <T>(maxShards: number, maxItems: number, rest: fc.Arbitrary<T>) =>
  fc
    .integer({ min: 1, max: maxShards })
    .chain((shards) => fc.tuple(fc.constant(shards), entriesArb(shards, maxItems), rest));

/**
 * The pager against DynamoDB Local: whatever the items, their spread over the shards and the page
 * size, a sharded list pages exactly like one partition would, and reads about a page per page.
 * The properties walk hundreds of pages each: their time-outs leave room for a loaded machine.
 */
describe('sharded list pager', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  /** A list of `shards` partitions of its own (fresh names: runs never see each other's items). */
  function freshList(shards: number): ShardedList {
    const name = `LIST_${randomUUID()}`;
    return {
      name,
      index: 'GSI1',
      partitions: Array.from({ length: shards }, (_, shard) => `${name}#${shard}`),
    };
  }

  const itemOf = (list: ShardedList, entry: Entry) => ({
    PK: `${list.name}#${entry.sortKey}`,
    SK: 'ITEM',
    GSI1PK: list.partitions[entry.shard],
    GSI1SK: entry.sortKey,
  });

  async function write(list: ShardedList, entries: readonly Entry[]) {
    for (let start = 0; start < entries.length; start += 25) {
      let requests: Record<string, unknown>[] | undefined = entries
        .slice(start, start + 25)
        .map((entry) => ({ PutRequest: { Item: itemOf(list, entry) } }));
      while (requests && requests.length > 0) {
        const reply: BatchWriteCommandOutput = await app.table.doc.send(
          new BatchWriteCommand({ RequestItems: { [app.table.name]: requests } }),
        );
        requests = reply.UnprocessedItems?.[app.table.name];
      }
    }
  }

  /** Follows the cursors to the end; `between` runs after each page but the last. */
  async function pageToEnd(
    list: ShardedList,
    limit: number,
    between: (page: number) => Promise<void> = async () => {},
  ) {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await pageShardedList(app.table, list, limit, cursor);
      pages.push(page.items.map((item) => item.GSI1SK as string));
      cursor = page.nextCursor ?? undefined;
      if (cursor) await between(pages.length);
    } while (cursor);
    return pages;
  }

  it('pages to the end through exactly the list sorted newest first, full pages but the last', async () => {
    await fc.assert(
      fc.asyncProperty(
        shardedArb(6, 60, fc.integer({ min: 2, max: 25 })),
        async ([shards, entries, limit]) => {
          const list = freshList(shards);
          await write(list, entries);

          const pages = await pageToEnd(list, limit);

          expect(pages.flat()).toEqual(newestFirst(entries.map((entry) => entry.sortKey)));
          expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
          // The last page is never empty, unless the list is.
          expect(pages.at(-1)?.length ?? 0).toBe(
            entries.length === 0 ? 0 : ((entries.length - 1) % limit) + 1,
          );
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  it('never repeats or skips an item that existed throughout while items are created and deleted between pages', async () => {
    const change = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), shard: fc.nat(), sortKey: sortKeyArb }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(
        shardedArb(
          5,
          40,
          fc.tuple(
            fc.integer({ min: 2, max: 8 }),
            fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 12 }),
          ),
        ),
        async ([shards, entries, [limit, changes]]) => {
          const list = freshList(shards);
          await write(list, entries);
          const present = new Map(entries.map((entry) => [entry.sortKey, entry]));
          const deleted = new Set<string>();

          const pages = await pageToEnd(list, limit, async (page) => {
            for (const step of changes[page - 1] ?? []) {
              if (step.kind === 'create') {
                if (present.has(step.sortKey) || deleted.has(step.sortKey)) continue;
                const entry = { shard: step.shard % shards, sortKey: step.sortKey };
                await app.table.doc.send(
                  new PutCommand({ TableName: app.table.name, Item: itemOf(list, entry) }),
                );
                present.set(entry.sortKey, entry);
              } else {
                const victim = [...present.values()][step.pick % Math.max(present.size, 1)];
                if (!victim) continue;
                await app.table.doc.send(
                  new DeleteCommand({
                    TableName: app.table.name,
                    Key: { PK: itemOf(list, victim).PK, SK: 'ITEM' },
                  }),
                );
                present.delete(victim.sortKey);
                deleted.add(victim.sortKey);
              }
            }
          });

          const shown = pages.flat();
          expect(new Set(shown).size).toBe(shown.length);
          expect(shown).toEqual(newestFirst(shown));
          const throughout = entries.map((entry) => entry.sortKey).filter((key) => !deleted.has(key));
          expect(shown).toEqual(expect.arrayContaining(throughout));
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  it('reads the oldest items up to a bound, oldest first, and says whether more are due', async () => {
    await fc.assert(
      fc.asyncProperty(
        shardedArb(5, 60, fc.tuple(fc.integer({ min: 1, max: 25 }), sortKeyArb)),
        async ([shards, entries, [limit, bound]]) => {
          const list = freshList(shards);
          await write(list, entries);

          const { items, more } = await readShardedList(app.table, list, {
            order: 'oldest first',
            limit,
            bound: { operator: '<=', value: bound },
          });

          const due = entries
            .map((entry) => entry.sortKey)
            .filter((key) => byBytes(key, bound) <= 0)
            .sort(byBytes);
          expect(items.map((item) => item.GSI1SK)).toEqual(due.slice(0, limit));
          expect(more).toBe(due.length > limit);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('refuses, as an invalid cursor, anything but a position this very list gave', async () => {
    const list = freshList(3);
    await write(list, [
      { shard: 0, sortKey: '2026-11-22T09:00:00.000Z#a' },
      { shard: 1, sortKey: '2026-11-22T09:01:00.000Z#b' },
    ]);
    const genuine = (await pageShardedList(app.table, list, 1, undefined)).nextCursor;
    expect(genuine).not.toBeNull();
    const another = encodeCursor({ list: 'FOLDERS', after: '2026-11-22T09:01:00.000Z#b' });
    await expect(pageShardedList(app.table, list, 1, another)).rejects.toBeInstanceOf(InvalidCursorError);

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((value) => encodeCursor({ value })),
          fc
            .record({ list: fc.constantFrom(list.name, 'LAWYERS'), after: fc.string({ maxLength: 1100 }) })
            .map(encodeCursor),
          fc.record({ list: fc.constant(list.name), after: sortKeyArb, PK: fc.string() }).map(encodeCursor),
        ),
        async (cursor) => {
          await expect(pageShardedList(app.table, list, 2, cursor)).rejects.toBeInstanceOf(
            InvalidCursorError,
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('reads about a page per page of a sharded list, not a page from every shard', async () => {
    const shards = ADMIN_LIST_SHARDS;
    const readPerShown = 1.5;
    // 400 items spread by their ids' hash over the shards, the former single partition empty: ids
    // are fixed, so the spread and the counts are the same at every run.
    const name = `COUNTED_${randomUUID()}`;
    const counted: ShardedList = { name, index: 'GSI1', partitions: listPartitions(name, shards) };
    const entries = Array.from({ length: 400 }, (_, index) => {
      const id = `item-${index}`;
      return {
        shard: shardOf(id, shards),
        sortKey: `${new Date(Date.UTC(2026, 10, 22, 9, 0, index)).toISOString()}#${id}`,
      };
    });
    await write(counted, entries);
    const limit = 50;
    const send = vi.spyOn(app.table.doc, 'send');

    const pages = await pageToEnd(counted, limit);

    const replies = (await Promise.all(send.mock.results.map((result) => result.value))) as {
      Items?: unknown[];
    }[];
    send.mockRestore();
    const itemsRead = replies.reduce((sum, reply) => sum + (reply.Items?.length ?? 0), 0);
    expect(pages.flat()).toEqual(newestFirst(entries.map((entry) => entry.sortKey)));
    expect(pages).toHaveLength(8);
    // Merging `limit` items of every partition read (shards + 1) × 400 items. Now a page costs
    // about one Query per partition, rarely a few more, and reads a fraction more than it shows.
    expect(itemsRead).toBeLessThanOrEqual(readPerShown * entries.length);
    expect(replies.length).toBeLessThanOrEqual(pages.length * (shards + 3));
  });

  it('reads one partition a page at a time: the items a page shows and the one that says more follow', async () => {
    const single = freshList(1);
    const entries = Array.from({ length: 200 }, (_, index) => ({
      shard: 0,
      sortKey: `${new Date(Date.UTC(2026, 10, 22, 9, 0, index)).toISOString()}#item-${index}`,
    }));
    await write(single, entries);
    const send = vi.spyOn(app.table.doc, 'send');

    const pages = await pageToEnd(single, 50);

    const replies = (await Promise.all(send.mock.results.map((result) => result.value))) as {
      Items?: unknown[];
    }[];
    send.mockRestore();
    expect(pages.flat()).toEqual(newestFirst(entries.map((entry) => entry.sortKey)));
    // One Query a page; with no shards to merge there is no spread to allow for.
    expect(replies).toHaveLength(pages.length);
    const itemsRead = replies.reduce((sum, reply) => sum + (reply.Items?.length ?? 0), 0);
    expect(itemsRead).toBe(entries.length + pages.length - 1);
  });
});
