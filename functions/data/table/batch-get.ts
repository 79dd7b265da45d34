import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';

import type { Table } from './table';

/** A table key, as built by the `keys.ts` of an area. */
export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** The items found by `getItemsByKey`, by key; a key without an item is absent. */
export interface FoundItems {
  get(key: ItemKey): Record<string, unknown> | undefined;
}

/** The most keys one BatchGetItem takes. */
const BATCH_GET_MAX_KEYS = 100;

const keyId = (key: ItemKey) => `${key.PK}\n${key.SK}`;

/**
 * Reads items by key with BatchGetItem: one round trip and one SDK call instead of a GetItem each
 * (the SDK's deserialisation, not the network, is most of a call's cost in a Lambda). 100 keys a
 * call, the calls at once; keys left unprocessed (throttling) are asked again after a growing
 * wait. Returns the items found, in no particular order (absent keys are simply missing).
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
      for (let round = 0; pending.length > 0; round++) {
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** round * 10, 1_000)));
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

/**
 * Several items read by key in one BatchGetItem, strongly consistent like the GetItems it stands
 * for. At most 100 keys (one call); duplicates are read once.
 */
export async function getItemsByKey(table: Table, keys: readonly ItemKey[]): Promise<FoundItems> {
  const unique = [...new Map(keys.map((key) => [keyId(key), { PK: key.PK, SK: key.SK }])).values()];
  if (unique.length > BATCH_GET_MAX_KEYS) throw new Error('BatchGetItem: 100 clés au plus');
  const items = await batchGetAll(table, unique, { consistent: true });
  const found = new Map(items.map((item) => [keyId({ PK: item.PK as string, SK: item.SK as string }), item]));
  return { get: (key) => found.get(keyId(key)) };
}
