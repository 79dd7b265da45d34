import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';

import type { Table } from './table';

/** A table key, as built by `keys.ts`. */
export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** The items found by `getItemsByKey`, by key; a key without an item is absent. */
export interface FoundItems {
  get(key: ItemKey): Record<string, unknown> | undefined;
}

const keyId = (key: ItemKey) => `${key.PK}\n${key.SK}`;

/**
 * Several items read by key in one BatchGetItem, strongly consistent like the GetItems it stands
 * for: one round trip and one SDK call instead of one each (the SDK's deserialisation, not the
 * network, is most of a call's cost in a Lambda). Unprocessed keys (throttling) are read again.
 * At most 100 keys, DynamoDB's limit for one call; duplicates are read once.
 */
export async function getItemsByKey(table: Table, keys: readonly ItemKey[]): Promise<FoundItems> {
  const unique = [...new Map(keys.map((key) => [keyId(key), { PK: key.PK, SK: key.SK }])).values()];
  if (unique.length > 100) throw new Error('BatchGetItem: 100 clés au plus');
  const found = new Map<string, Record<string, unknown>>();
  let pending: Record<string, unknown>[] = unique;
  for (let round = 0; pending.length > 0; round++) {
    // Keys left unprocessed mean the table is throttling: wait a little more each time.
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** round * 10, 1_000)));
    const { Responses, UnprocessedKeys } = await table.doc.send(
      new BatchGetCommand({ RequestItems: { [table.name]: { Keys: pending, ConsistentRead: true } } }),
    );
    for (const item of Responses?.[table.name] ?? [])
      found.set(keyId({ PK: item.PK as string, SK: item.SK as string }), item);
    pending = UnprocessedKeys?.[table.name]?.Keys ?? [];
  }
  return { get: (key) => found.get(keyId(key)) };
}
