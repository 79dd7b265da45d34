import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { workflowHealthKey } from '../data/directory/keys';
import { pausedIndexKeys } from '../data/health/keys';
import { batchGetAll } from '../data/table/batch-get';
import type { Table } from '../data/table/table';
import { applied } from '../data/table/table-errors';
import { workflowIdPages } from './workflow-ids';

/** What a run did: pauses found without their paused-list entry, and those given one. */
export interface PausedListMigrationRun {
  readonly found: number;
  readonly indexed: number;
}

/**
 * Gives each pause recorded before the paused list existed its entry (GSI1 `PAUSED`), once after
 * the deploy that introduced it: the all-workflows list a page at a time (Query, never Scan), the
 * page's health items in one BatchGetItem, one UpdateItem per pause without an entry, conditional
 * on the pause read (one ended or written meanwhile is left as it is). Idempotent and safe while
 * the application runs.
 */
export async function migratePausedList(table: Table, pageSize = 100): Promise<PausedListMigrationRun> {
  let found = 0;
  let indexed = 0;
  for await (const ids of workflowIdPages(table, pageSize)) {
    const health = await batchGetAll(table, ids.map(workflowHealthKey), {
      projection: 'PK, SK, workflowId, pausedAt, GSI1PK',
    });
    for (const item of health) {
      if (typeof item.pausedAt !== 'string' || item.GSI1PK !== undefined) continue;
      found += 1;
      const index = pausedIndexKeys(item.workflowId as string, item.pausedAt);
      const update = new UpdateCommand({
        TableName: table.name,
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
        ConditionExpression: 'pausedAt = :at AND attribute_not_exists(GSI1PK)',
        ExpressionAttributeValues: { ':pk': index.GSI1PK, ':sk': index.GSI1SK, ':at': item.pausedAt },
      });
      if (await applied(table.doc.send(update))) indexed += 1;
    }
  }
  return { found, indexed };
}
