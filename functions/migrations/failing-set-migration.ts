import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { scheduleKey, workflowKey } from '../data/directory/keys';
import { toSummary } from '../data/health/health-reads';
import { failingItem } from '../data/health/health-writes';
import { workflowHealthKey } from '../data/health/keys';
import { getItemsByKey } from '../data/table/batch-get';
import { queryPages } from '../data/table/query-all';
import type { Table } from '../data/table/table';
import { isConditionFailure } from '../data/table/table-errors';
import { FORMER_FAILING_PARTITION } from './former-keys';

/** What a run of the failing set's migration did. */
export interface FailingSetMigration {
  /** Items read in the former partition. */
  readonly read: number;
  /** Moved to their workflow's partition and their shard of the streak index. */
  readonly moved: number;
  /** Dropped: their workflow was deleted, or has succeeded since (its streak ended). */
  readonly dropped: number;
}

/**
 * Moves the failing set out of its former single partition (`HEALTH#FAILING`, `former-keys.ts`)
 * into the workflows' partitions and the streak index, once after the deploy that introduced them.
 *
 * The code of today never writes the former partition: since the deploy, a failure wrote its
 * workflow's new item and a success that ended a streak deleted only that one. So a former item is
 * moved from the workflow's health summary, which is current (its streak on its schedule item, its
 * last failure on its health item), under the
 * workflow's name of today, and only while the workflow exists and its streak runs; a new item
 * already written is never overwritten (conditional put). Each former item goes in one transaction
 * with its move: run again, or beside the application, it finds nothing left to do. A page of
 * `pageSize` items reads its workflows and summaries in one BatchGetItem (100 keys at most: 33 a
 * page).
 */
export async function migrateFailingSet(table: Table, pageSize = 33): Promise<FailingSetMigration> {
  let read = 0;
  let moved = 0;
  let dropped = 0;
  for await (const page of queryPages(table, {
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': FORMER_FAILING_PARTITION },
    Limit: pageSize,
  })) {
    const items = page.Items ?? [];
    read += items.length;
    const ids = items.map((item) => item.SK as string);
    const found = await getItemsByKey(table, [
      ...ids.map((id) => workflowKey(id)),
      ...ids.map((id) => workflowHealthKey(id)),
      ...ids.map((id) => scheduleKey(id)),
    ]);
    for (const former of items) {
      const id = former.SK as string;
      const summary = toSummary(id, found.get(workflowHealthKey(id)), found.get(scheduleKey(id)));
      const streak = summary.consecutiveFailures;
      const workflow = found.get(workflowKey(id));
      const keep = workflow !== undefined && streak > 0;
      const formerKey = { PK: FORMER_FAILING_PARTITION, SK: id };
      const dropFormer = async () => {
        await table.doc.send(new DeleteCommand({ TableName: table.name, Key: formerKey }));
        dropped += 1;
      };
      if (!keep) {
        await dropFormer();
        continue;
      }
      const item = failingItem({
        workflowId: id,
        workflowName: (workflow.name as string | undefined) ?? (former.workflowName as string),
        consecutiveFailures: streak,
        lastFailureAt: summary.lastFailureAt,
        lastFailureMessage: summary.lastFailureMessage,
      });
      try {
        await table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
              { Delete: { TableName: table.name, Key: formerKey } },
            ],
          }),
        );
        moved += 1;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // A failure since the deploy wrote the item already, from the same summary: keep it.
        await dropFormer();
      }
    }
  }
  return { read, moved, dropped };
}
