import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_INDEX_PARTITION, FOLDERS_PARTITION, LAWYERS_PARTITION } from '../data/directory/keys';
import { queryPages } from '../data/table/query-all';
import type { Table } from '../data/table/table';
import { applied } from '../data/table/table-errors';
import { formerAdminListShards } from './former-keys';

/** What a run did: items found in a former shard, and those moved (the rest moved meanwhile). */
export interface AdminListsMigrationRun {
  readonly read: number;
  readonly moved: number;
}

/**
 * Brings the lawyers, folders and audit entries still in a former GSI1 shard of their list to the
 * list's one partition: Query of each former shard (never Scan), one UpdateItem of `GSI1PK` per
 * item, conditional on the shard read (a save meanwhile put it there itself; a deletion stands).
 * Idempotent and safe while the application runs; the automations move in `migrateWorkflows`.
 */
export async function migrateAdminLists(table: Table): Promise<AdminListsMigrationRun> {
  let read = 0;
  let moved = 0;
  for (const list of [LAWYERS_PARTITION, FOLDERS_PARTITION, AUDIT_INDEX_PARTITION]) {
    for (const shard of formerAdminListShards(list)) {
      for await (const page of queryPages(table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': shard },
        ProjectionExpression: 'PK, SK',
      })) {
        for (const item of page.Items ?? []) {
          read += 1;
          const update = new UpdateCommand({
            TableName: table.name,
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET GSI1PK = :list',
            ConditionExpression: 'GSI1PK = :shard',
            ExpressionAttributeValues: { ':list': list, ':shard': shard },
          });
          if (await applied(table.doc.send(update))) moved += 1;
        }
      }
    }
  }
  return { read, moved };
}
