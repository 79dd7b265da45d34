import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';

import type { Table } from './table';

/** The most keys one BatchGetItem takes. */
const BATCH_GET_MAX_KEYS = 100;

/**
 * Reads items by key with BatchGetItem: 100 keys a call, the calls at once, unprocessed keys asked
 * again until none is left. Returns the items found, in no particular order (absent keys are
 * simply missing).
 */
export async function batchGetAll(
  table: Table,
  keys: readonly Record<string, unknown>[],
  options: { readonly consistent?: boolean; readonly projection?: string } = {},
): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_MAX_KEYS) {
    chunks.push(keys.slice(start, start + BATCH_GET_MAX_KEYS));
  }
  const pages = await Promise.all(
    chunks.map(async (chunk) => {
      const found: Record<string, unknown>[] = [];
      let pending = chunk;
      while (pending.length > 0) {
        const { Responses, UnprocessedKeys } = await table.doc.send(
          new BatchGetCommand({
            RequestItems: {
              [table.name]: {
                Keys: pending,
                ...(options.consistent ? { ConsistentRead: true } : {}),
                ...(options.projection ? { ProjectionExpression: options.projection } : {}),
              },
            },
          }),
        );
        found.push(...(Responses?.[table.name] ?? []));
        pending = (UnprocessedKeys?.[table.name]?.Keys ?? []) as Record<string, unknown>[];
      }
      return found;
    }),
  );
  return pages.flat();
}
