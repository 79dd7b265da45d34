import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Page } from '../../domain/core/ports';
import { decodeCursor, encodeCursor } from './page-cursor';
import type { Table } from './table';

/**
 * A list written across several partitions of one index, so that no write path lands on a single
 * partition key: every partition holds part of the list, all ordered alike by the
 * index's sort key.
 */
export interface ShardedList {
  /** Written into every cursor, so that a cursor of one list is refused by another. */
  readonly name: string;
  /** The index; its keys are `<index>PK` and `<index>SK`. */
  readonly index: 'GSI1' | 'GSI2' | 'GSI3';
  /** Every partition of the list: its shards, and the single key of items written before them. */
  readonly partitions: readonly string[];
  /** The shape of its sort key, which a cursor holds ({@link ListSortKey} unless given). */
  readonly sortKey?: z.ZodString;
}

/** Which end of the sort order a read starts from. */
export type ListOrder = 'newest first' | 'oldest first';

/** A sort-key range of a read: the comparison of the index's sort key with `value`. */
export interface SortKeyBound {
  readonly operator: '<' | '<=' | '>' | '>=';
  readonly value: string;
}

/**
 * The sort key every sharded list of this table is ordered by: `<ISO time>#<id>` (a creation time,
 * an audit time, a purge date). A cursor holds one, checked against this shape before DynamoDB
 * sees it: ASCII and short, so it is never a comparison value DynamoDB refuses with a 500.
 */
export const ListSortKey = z.string().regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[\w-]{1,100}$/);

/**
 * A cursor names its list and, for a filtered read, the filter (a digest of it: the search's
 * words, the flags asked for), so that a cursor of another list or another search is refused.
 */
const cursorShape = (list: ShardedList, filterTag: string | undefined) =>
  z.strictObject({
    list: z.literal(list.name),
    after: list.sortKey ?? ListSortKey,
    ...(filterTag === undefined ? {} : { filter: z.literal(filterTag) }),
  });

/** A DynamoDB filter on the items a read looks at (ExpressionAttributeNames and Values of its own). */
export interface ItemFilter {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * A filtered read: the filter, its digest for the cursor, and the most Query pages one page reads;
 * without a filter, the caller keeps the items itself and the digest only binds the cursor to it.
 */
export type FilteredRead =
  | { readonly filter: ItemFilter; readonly tag: string; readonly budget: number }
  | { readonly tag: string };

/**
 * One page of a sharded list, newest first; the cursor is the last sort key shown (it ends with the
 * item's id), so no item is skipped or shown twice whatever is written meanwhile.
 */
export async function pageShardedList(
  table: Table,
  list: ShardedList,
  limit: number,
  cursor: string | undefined,
  filtered?: FilteredRead,
): Promise<Page<Record<string, unknown>>> {
  // The shape is built only for a cursor to check: a first page builds no schema.
  const after =
    cursor === undefined
      ? undefined
      : (decodeCursor(cursor, cursorShape(list, filtered?.tag)).after as string);
  const { items, more, resumeAfter } = await readShardedList(table, list, {
    order: 'newest first',
    limit,
    bound: after === undefined ? undefined : { operator: '<', value: after },
    ...(filtered && 'filter' in filtered ? { filter: filtered.filter, budget: filtered.budget } : {}),
  });
  const last =
    resumeAfter ?? (items.at(-1) ? sortKeyOf(list, items.at(-1) as Record<string, unknown>) : undefined);
  return {
    items,
    nextCursor:
      more && last
        ? encodeCursor({ list: list.name, after: last, ...(filtered ? { filter: filtered.tag } : {}) })
        : null,
  };
}

/**
 * The first `limit` items of a sharded list in `order`, reading about `limit` items in all: shards are
 * read a share at a time and merged, and only the shards that could still hold an earlier item are
 * read further.
 */
export async function readShardedList(
  table: Table,
  list: ShardedList,
  read: {
    readonly order: ListOrder;
    readonly limit: number;
    readonly bound?: SortKeyBound | undefined;
    /** Only the items it keeps are counted in the page (DynamoDB's FilterExpression). */
    readonly filter?: ItemFilter;
    /**
     * The most Query pages to read. Spent before the page is full: the page holds what is final
     * so far (possibly nothing) and `resumeAfter` says where the reading stopped.
     */
    readonly budget?: number;
  },
): Promise<{ items: Record<string, unknown>[]; more: boolean; resumeAfter?: string }> {
  const sortAttribute = `${list.index}SK`;
  const wanted = read.limit + 1;
  // DynamoDB orders string sort keys by their UTF-8 bytes (`localeCompare` would not: case, `-`,
  // `_`), so keys are compared as bytes, each converted once.
  const compare =
    read.order === 'newest first' ? (a: Buffer, b: Buffer) => Buffer.compare(b, a) : Buffer.compare;
  let shards: Shard[] = list.partitions.map((partition) => ({
    partition,
    after: undefined,
    last: undefined,
  }));
  let merged: { readonly key: Buffer; readonly item: Record<string, unknown> }[] = [];
  let share = shareOf(wanted, shards.length, read.filter !== undefined);
  let pages = 0;
  for (;;) {
    if (read.budget !== undefined && pages + shards.length > read.budget) {
      // Out of budget: the items up to the least advanced shard's position are final.
      const frontier = shards.map((shard) => shard.last as Buffer).sort(compare)[0] as Buffer;
      const final = merged.filter(({ key }) => compare(key, frontier) <= 0);
      return final.length > read.limit
        ? { items: final.slice(0, read.limit).map(({ item }) => item), more: true }
        : { items: final.map(({ item }) => item), more: true, resumeAfter: frontier.toString('utf8') };
    }
    pages += shards.length;
    const reads = await Promise.all(
      shards.map(async ({ partition, after }) => {
        const { Items = [], LastEvaluatedKey } = await table.doc.send(
          new QueryCommand(queryInput(table, list, read, { partition, after }, share)),
        );
        // An index query's last evaluated key holds the index's sort key: the shard's position.
        const last = LastEvaluatedKey && keyBytes(LastEvaluatedKey[sortAttribute]);
        return { items: Items, shard: { partition, after: LastEvaluatedKey, last } };
      }),
    );
    merged = [
      ...merged,
      ...reads.flatMap(({ items }) => items.map((item) => ({ key: keyBytes(item[sortAttribute]), item }))),
    ]
      .sort((a, b) => compare(a.key, b.key))
      .slice(0, wanted);
    const pageEnd = merged.length === wanted ? merged[wanted - 1]?.key : undefined;
    // A shard whose position is at or after the page's end holds nothing more for this page.
    shards = reads
      .map(({ shard }) => shard)
      .filter(
        (shard) => shard.last !== undefined && (pageEnd === undefined || compare(shard.last, pageEnd) < 0),
      );
    const frontier = shards.map((shard) => shard.last as Buffer).sort(compare)[0];
    if (frontier === undefined) break;
    const final = merged.filter(({ key }) => compare(key, frontier) <= 0).length;
    share = shareOf(wanted - final, shards.length, read.filter !== undefined);
  }
  return { items: merged.slice(0, read.limit).map(({ item }) => item), more: merged.length > read.limit };
}

interface Shard {
  readonly partition: string;
  /** Where the next read of this shard starts (DynamoDB's last evaluated key); none on the first. */
  readonly after: Record<string, unknown> | undefined;
  /** The sort key of that position: everything this shard has not given yet comes after it. */
  readonly last: Buffer | undefined;
}

function queryInput(
  table: Table,
  list: ShardedList,
  read: {
    readonly order: ListOrder;
    readonly bound?: SortKeyBound | undefined;
    readonly filter?: ItemFilter;
  },
  shard: Pick<Shard, 'partition' | 'after'>,
  limit: number,
): QueryCommandInput {
  const { bound, filter } = read;
  return {
    TableName: table.name,
    IndexName: list.index,
    KeyConditionExpression: bound
      ? `${list.index}PK = :pk AND ${list.index}SK ${bound.operator} :bound`
      : `${list.index}PK = :pk`,
    ExpressionAttributeValues: {
      ':pk': shard.partition,
      ...(bound ? { ':bound': bound.value } : {}),
      ...filter?.values,
    },
    ...(filter ? { FilterExpression: filter.expression } : {}),
    // DynamoDB refuses an empty map of names (a filter on attributes needing none).
    ...(filter && Object.keys(filter.names).length > 0
      ? { ExpressionAttributeNames: { ...filter.names } }
      : {}),
    ScanIndexForward: read.order === 'oldest first',
    Limit: limit,
    ExclusiveStartKey: shard.after,
  };
}

/**
 * How many items to ask each of `shards` for when `wanted` more are needed among them: an even
 * share and two standard deviations of how a hash spreads them (√share), so that one read of
 * each shard nearly always suffices without reading every shard for the whole page. A single
 * partition read unfiltered has no spread: it gives the next `wanted` items, more would be read
 * for nothing (filtered, its margin stands for the items the filter drops).
 */
function shareOf(wanted: number, shards: number, filtered: boolean): number {
  if (shards === 1 && !filtered) return wanted;
  const even = wanted / shards;
  return Math.ceil(even) + Math.ceil(2 * Math.sqrt(even));
}

function sortKeyOf(list: ShardedList, item: Record<string, unknown>): string {
  return item[`${list.index}SK`] as string;
}

function keyBytes(sortKey: unknown): Buffer {
  return Buffer.from(String(sortKey), 'utf8');
}
