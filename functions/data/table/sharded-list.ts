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
const ListSortKey = z.string().regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[\w-]{1,100}$/);

const cursorShape = (list: ShardedList) => z.strictObject({ list: z.literal(list.name), after: ListSortKey });

/**
 * One page of a sharded list, newest first; the cursor is the last sort key shown (it ends with the
 * item's id), so no item is skipped or shown twice whatever is written meanwhile.
 */
export async function pageShardedList(
  table: Table,
  list: ShardedList,
  limit: number,
  cursor: string | undefined,
): Promise<Page<Record<string, unknown>>> {
  const after = cursor === undefined ? undefined : (decodeCursor(cursor, cursorShape(list)).after as string);
  const { items, more } = await readShardedList(table, list, {
    order: 'newest first',
    limit,
    bound: after === undefined ? undefined : { operator: '<', value: after },
  });
  const last = items.at(-1);
  return {
    items,
    nextCursor: more && last ? encodeCursor({ list: list.name, after: sortKeyOf(list, last) }) : null,
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
  read: { readonly order: ListOrder; readonly limit: number; readonly bound?: SortKeyBound | undefined },
): Promise<{ items: Record<string, unknown>[]; more: boolean }> {
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
  let share = shareOf(wanted, shards.length);
  for (;;) {
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
    share = shareOf(wanted - final, shards.length);
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
  read: { readonly order: ListOrder; readonly bound?: SortKeyBound | undefined },
  shard: Pick<Shard, 'partition' | 'after'>,
  limit: number,
): QueryCommandInput {
  const { bound } = read;
  return {
    TableName: table.name,
    IndexName: list.index,
    KeyConditionExpression: bound
      ? `${list.index}PK = :pk AND ${list.index}SK ${bound.operator} :bound`
      : `${list.index}PK = :pk`,
    ExpressionAttributeValues: bound
      ? { ':pk': shard.partition, ':bound': bound.value }
      : { ':pk': shard.partition },
    ScanIndexForward: read.order === 'oldest first',
    Limit: limit,
    ExclusiveStartKey: shard.after,
  };
}

/**
 * How many items to ask each of `shards` for when `wanted` more are needed among them: an even
 * share and two standard deviations of how a hash spreads them (√share), so that one read of
 * each shard nearly always suffices without reading every shard for the whole page.
 */
function shareOf(wanted: number, shards: number): number {
  const even = wanted / shards;
  return Math.ceil(even) + Math.ceil(2 * Math.sqrt(even));
}

function sortKeyOf(list: ShardedList, item: Record<string, unknown>): string {
  return item[`${list.index}SK`] as string;
}

function keyBytes(sortKey: unknown): Buffer {
  return Buffer.from(String(sortKey), 'utf8');
}
