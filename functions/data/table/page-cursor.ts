import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';

import { InvalidCursorError } from '../../domain/core/errors';
import type { Page } from '../../domain/core/ports';
import type { Table } from './table';

const KeyPart = z.string().min(1).max(1024);

/**
 * The last key of a page of one index partition, the partition fixed: a cursor is read back only in
 * exactly this shape, so it can name a place in the caller's own list and nothing else.
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
