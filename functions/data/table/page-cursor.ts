import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';

import { MESSAGES } from '../../../shared/messages';
import type { Table } from './table';

/**
 * A page cursor this repository did not give for this list (tampered, truncated, another list's):
 * the caller's input, a 400 naming the field (functions/http/error-statuses.ts).
 */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
  constructor(options?: ErrorOptions) {
    super(MESSAGES.request.invalidCursor, options);
  }
}

/** One page of a list and the cursor of the next one (null on the last page). */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

const KeyPart = z.string().min(1).max(1024);

/**
 * The shape of the last key of a page of one index partition: the table's keys and the index's,
 * the partition fixed to the one being listed. A cursor is that key as base64url JSON; it is read
 * back only if it has exactly that shape, so a changed cursor can name a position inside the
 * caller's own list and nothing else: never another partition (another lawyer's workflows), never
 * extra attributes, and DynamoDB never sees a start key it would refuse with a 500.
 */
export function indexPageKey(partitionAttribute: `${string}PK`, partition: string) {
  const sortAttribute = partitionAttribute.replace(/PK$/, 'SK');
  return z.strictObject({
    PK: KeyPart,
    SK: KeyPart,
    [partitionAttribute]: z.literal(partition),
    [sortAttribute]: KeyPart,
  });
}

/** The last key of a table-partition page (the partition fixed, sort keys under a prefix). */
export function tablePageKey(partition: string, sortPrefix: string) {
  return z.strictObject({ PK: z.literal(partition), SK: KeyPart.startsWith(sortPrefix) });
}

export function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor(
  cursor: string,
  shape: z.ZodType<Record<string, unknown>>,
): Record<string, unknown> {
  try {
    return shape.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch (error) {
    throw new InvalidCursorError({ cause: error });
  }
}

/**
 * One page of a Query: at most `limit` items after the cursor's position, and the cursor of the
 * next page. The cursor is checked against `shape` before DynamoDB sees it.
 */
export async function queryPage(
  table: Table,
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  shape: z.ZodType<Record<string, unknown>>,
  limit: number,
  cursor: string | undefined,
): Promise<Page<Record<string, unknown>>> {
  const { Items = [], LastEvaluatedKey } = await table.doc.send(
    new QueryCommand({
      ...input,
      TableName: table.name,
      Limit: limit,
      ExclusiveStartKey: cursor === undefined ? undefined : decodeCursor(cursor, shape),
    }),
  );
  return { items: Items, nextCursor: LastEvaluatedKey ? encodeCursor(shape.parse(LastEvaluatedKey)) : null };
}
