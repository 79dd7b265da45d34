import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';

import type { Table } from './table';

/** A Query's pages, one after the other, to its end. */
export async function* queryPages(
  table: Table,
  input: Omit<QueryCommandInput, 'TableName'>,
): AsyncGenerator<QueryCommandOutput> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }),
    );
    yield page;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Runs a Query to its end, page after page, and returns every item. */
export async function queryAll(table: Table, input: Omit<QueryCommandInput, 'TableName'>) {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(table, input)) items.push(...(page.Items ?? []));
  return items;
}
