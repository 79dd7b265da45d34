import { WORKFLOWS_PARTITION } from '../data/directory/keys';
import { queryPages } from '../data/table/query-all';
import type { Table } from '../data/table/table';

/** Every workflow's id, a page at a time from the all-workflows list (Query, never Scan). */
export async function* workflowIdPages(table: Table, pageSize: number): AsyncGenerator<string[]> {
  for await (const page of queryPages(table, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': WORKFLOWS_PARTITION },
    ProjectionExpression: 'id',
    Limit: pageSize,
  })) {
    yield (page.Items ?? []).map((item) => item.id as string);
  }
}
