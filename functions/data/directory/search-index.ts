import { createHash } from 'node:crypto';

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Page } from '../../domain/core/ports';
import { type SearchTerms, searchKeyOf, searchKeys, searchText } from '../../domain/directory/search-terms';
import { decodeCursor, encodeCursor } from '../table/page-cursor';
import { ListSortKey, pageShardedList, type ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import type { TransactItem } from './counters';
import { type SearchedList, searchEntryKey, searchPartition } from './keys';

/**
 * The search index of the directory's lists (docs/data-model.md, 'Searches'): an entry per item
 * and word beginning (its first three letters), in the item's partition; GSI1 groups the entries
 * of one beginning of one list, newest first like the list itself, so that every entry list of a
 * list is ordered alike. Each entry carries the item's search text, which DynamoDB filters on for
 * the rest of the query's words.
 */

/** The most pages of the table a search or a filtered page reads, whatever the table holds. */
export const READ_BUDGET = 10;

/** What the index needs to know of an item. */
export interface SearchableItem {
  /** The item's own partition (`WORKFLOW#<id>`): its entries live beside it and go with it. */
  readonly partition: string;
  readonly id: string;
  /** The list's sort key of the item (`<createdAt>#<id>`), which never changes. */
  readonly sortKey: string;
  /** The texts searched, in reading order (the name first). */
  readonly texts: readonly (string | null | undefined)[];
}

/**
 * The writes that bring an item's entries from `before` to `after` (null: none), for the item's
 * own transaction: a new beginning is put, a lost one deleted, and every kept one put again when
 * the text changed (its copy of the text is what DynamoDB filters on). Nothing when the texts stay.
 */
export function searchEntryWrites(
  table: Table,
  list: SearchedList,
  before: SearchableItem | null,
  after: SearchableItem | null,
): TransactItem[] {
  const beforeText = before ? searchText(before.texts) : null;
  const afterText = after ? searchText(after.texts) : null;
  if (beforeText === afterText) return [];
  const kept = new Set(after ? searchKeys(after.texts) : []);
  const writes: TransactItem[] = [];
  if (before) {
    for (const key of searchKeys(before.texts)) {
      if (!kept.has(key))
        writes.push({ Delete: { TableName: table.name, Key: searchEntryKey(before.partition, key) } });
    }
  }
  if (after && afterText !== null) {
    for (const key of kept) {
      writes.push({
        Put: {
          TableName: table.name,
          Item: {
            ...searchEntryKey(after.partition, key),
            entity: 'SearchEntry',
            id: after.id,
            GSI1PK: searchPartition(list, key),
            GSI1SK: after.sortKey,
            search: afterText,
          },
        },
      });
    }
  }
  return writes;
}

/** A DynamoDB filter keeping the items whose search text holds every word at a word's start. */
export function wordsFilter(words: readonly string[]) {
  return {
    expression: words.map((_, index) => `contains(#search, :w${index})`).join(' AND '),
    names: { '#search': 'search' },
    values: Object.fromEntries(words.map((word, index) => [`:w${index}`, ` ${word}`])),
  };
}

/** One page of a search: the ids found, newest first, and where the next page starts. */
export interface SearchPage {
  readonly ids: string[];
  /** Read the next page after this sort key; null when nothing is left. */
  readonly resumeAfter: string | null;
}

/** How many entries a first read of each word's entry list looks at, to find the sparsest. */
const PROBE_ENTRIES = 50;

interface EntryRead {
  readonly matches: { readonly id: string; readonly sortKey: string }[];
  /** The sort key of the last entry looked at; undefined once the list is read to its end. */
  readonly position: string | undefined;
}

/**
 * One page of the items of `list` matching the terms (at least one keyed word), newest first,
 * after `after`, reading at most `budget` pages of the index.
 *
 * Every keyed word has its entry list, and an item matching the query is in each of them, at the
 * same place (they are all ordered by the list's sort key): the list of the sparsest word reaches
 * furthest for the same reading, and what it holds up to where it was read is the complete answer
 * up to there. So the first read looks at the start of each word's list (three at most, the
 * longest words), keeps the one that went furthest (or ran out: then its matches are all there
 * is), and reads on in it alone until the page is full, the list ends or the budget is spent (the
 * page is then shorter, possibly empty, and the next starts where the reading stopped).
 */
export async function searchIndex(
  table: Table,
  read: {
    readonly list: SearchedList;
    readonly terms: SearchTerms;
    readonly limit: number;
    readonly after: string | undefined;
    readonly budget: number;
  },
): Promise<SearchPage> {
  const filter = wordsFilter(read.terms.words);
  const keys = [...new Set(read.terms.keyed.map(searchKeyOf))].slice(0, 3);
  const readEntries = async (key: string, after: string | undefined, limit?: number): Promise<EntryRead> => {
    const { Items = [], LastEvaluatedKey } = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'GSI1',
        KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK < :after' : 'GSI1PK = :pk',
        FilterExpression: filter.expression,
        ExpressionAttributeNames: filter.names,
        ExpressionAttributeValues: {
          ':pk': searchPartition(read.list, key),
          ...(after ? { ':after': after } : {}),
          ...filter.values,
        },
        ProjectionExpression: 'id, GSI1SK',
        ScanIndexForward: false,
        ...(limit ? { Limit: limit } : {}),
      }),
    );
    return {
      matches: Items.map((item) => ({ id: item.id as string, sortKey: item.GSI1SK as string })),
      position: LastEvaluatedKey?.GSI1SK as string | undefined,
    };
  };
  const probes = await Promise.all(keys.map((key) => readEntries(key, read.after, PROBE_ENTRIES)));
  let pages = probes.length;
  // A list read to its end holds the whole answer; else the one read furthest (newest first: the
  // smallest position) is the sparsest.
  const ended = probes.findIndex((probe) => probe.position === undefined);
  const driver =
    ended >= 0
      ? ended
      : probes.reduce(
          (best, probe, index) =>
            (probe.position as string) < (probes[best]?.position as string) ? index : best,
          0,
        );
  const first = probes[driver] as EntryRead;
  const matches = [...first.matches];
  let position = first.position;
  while (matches.length < read.limit && position !== undefined && pages < read.budget) {
    const next = await readEntries(keys[driver] as string, position);
    pages += 1;
    matches.push(...next.matches);
    position = next.position;
  }
  if (matches.length > read.limit || (matches.length === read.limit && position !== undefined)) {
    const page = matches.slice(0, read.limit);
    return { ids: page.map((match) => match.id), resumeAfter: page.at(-1)?.sortKey ?? null };
  }
  return { ids: matches.map((match) => match.id), resumeAfter: position ?? null };
}

/**
 * A short digest of what a filtered read keeps (the search's words, the flags, the folder), written
 * in its cursors: a cursor of another search is refused, never read as a position in this one.
 */
export function listFilterTag(criteria: Readonly<Record<string, unknown>>): string {
  const defined = Object.entries(criteria).filter(([, value]) => value !== undefined);
  return createHash('sha256').update(JSON.stringify(defined)).digest('base64url').slice(0, 16);
}

const searchCursorShape = (list: SearchedList, tag: string) =>
  z.strictObject({ list: z.literal(`SEARCH#${list}`), filter: z.literal(tag), after: ListSortKey });

/**
 * One page of a search over the index (`searchIndex`), its cursor naming the list and the search
 * (`tag`): one of another list or search is an InvalidCursorError (a 400).
 */
export async function pageSearch(
  table: Table,
  read: {
    readonly list: SearchedList;
    readonly terms: SearchTerms;
    readonly limit: number;
    readonly cursor: string | undefined;
    readonly tag: string;
    readonly budget: number;
  },
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const after =
    read.cursor === undefined
      ? undefined
      : (decodeCursor(read.cursor, searchCursorShape(read.list, read.tag)).after as string);
  const page = await searchIndex(table, { ...read, after });
  return {
    ids: page.ids,
    nextCursor:
      page.resumeAfter === null
        ? null
        : encodeCursor({ list: `SEARCH#${read.list}`, filter: read.tag, after: page.resumeAfter }),
  };
}

/**
 * One page of a searchable list (lawyers, folders), newest first: the whole list without a search;
 * with one, the search index when a word is long enough to be looked up, else the list itself
 * filtered by DynamoDB, at most `READ_BUDGET` pages either way.
 */
export async function pageSearchedList<T>(
  table: Table,
  read: {
    readonly list: SearchedList;
    readonly sharded: ShardedList;
    readonly terms: SearchTerms | null | undefined;
    readonly limit: number;
    readonly cursor: string | undefined;
    /** The records of the ids the index found, in their order. */
    readonly byIds: (ids: readonly string[]) => Promise<T[]>;
    readonly toRecord: (item: Record<string, unknown>) => T;
  },
): Promise<Page<T>> {
  const { terms, limit, cursor } = read;
  const tag = terms ? listFilterTag({ words: terms.words }) : '';
  if (terms && terms.keyed.length > 0) {
    const page = await pageSearch(table, { list: read.list, terms, limit, cursor, tag, budget: READ_BUDGET });
    return { items: await read.byIds(page.ids), nextCursor: page.nextCursor };
  }
  const filtered = terms ? { filter: wordsFilter(terms.words), tag, budget: READ_BUDGET } : undefined;
  const page = await pageShardedList(table, read.sharded, limit, cursor, filtered);
  return { items: page.items.map(read.toRecord), nextCursor: page.nextCursor };
}
