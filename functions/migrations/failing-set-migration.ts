import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { workflowKey } from '../data/directory/keys';
import { failingItem } from '../data/health/health-repository';
import { workflowHealthKey } from '../data/health/keys';
import { getItemsByKey } from '../data/table/batch-get';
import { queryPages } from '../data/table/query-all';
import { isConditionFailure, type Table } from '../data/table/table';
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
 * Moves the failing set out of its former partition (`former-keys.ts`), each item from its workflow's
 * current summary and only while its streak runs, in one transaction with its removal: idempotent and
 * safe beside the running application.
 */
export async function migrateFailingSet(table: Table, pageSize = 50): Promise<FailingSetMigration> {
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
    ]);
    for (const former of items) {
      const id = former.SK as string;
      const summary = found.get(workflowHealthKey(id));
      const streak = (summary?.consecutiveFailures as number | undefined) ?? 0;
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
        lastFailureAt: (summary?.lastFailureAt as string | undefined) ?? null,
        lastFailureMessage: (summary?.lastFailureMessage as string | undefined) ?? null,
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
