import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

import type { Table } from './table';

/** Runs a Query to its end, page after page, and returns every item. */
export async function queryAll(table: Table, input: Omit<QueryCommandInput, 'TableName'>) {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({ ...input, TableName: table.name, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
