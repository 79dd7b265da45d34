import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';

import type { Table } from './table';

/** The most items one BatchWriteItem takes. */
const BATCH_WRITE_MAX_ITEMS = 25;

/**
 * Puts items with BatchWriteItem, unconditionally: one round trip for up to 25 items, each billed
 * as its own PutItem (a transaction would bill every item twice). Items DynamoDB leaves unprocessed
 * (throttling) are sent again after a growing wait, so that every item is written when it returns.
 */
export async function putItems(table: Table, items: readonly Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH_WRITE_MAX_ITEMS) {
    let pending = items.slice(start, start + BATCH_WRITE_MAX_ITEMS).map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** round * 10, 1_000)));
      const { UnprocessedItems } = await table.doc.send(
        new BatchWriteCommand({ RequestItems: { [table.name]: pending } }),
      );
      pending = (UnprocessedItems?.[table.name] ?? []) as typeof pending;
    }
  }
}
