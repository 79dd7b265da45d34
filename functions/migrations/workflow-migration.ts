import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { scheduleKey, WORKFLOWS_PARTITION, workflowKey } from '../data/directory/keys';
import { scheduleItem, toScheduleRecord } from '../data/directory/workflows';
import { batchGetAll } from '../data/table/batch-get';
import type { Table } from '../data/table/table';
import { isConditionFailure, isWriteConflict } from '../data/table/table-errors';
import { formerWorkflowListPartitions } from './former-keys';

/**
 * The attributes a workflow item carried before schedule items: the schedule state and
 * the due-index keys, now on the schedule item alone.
 */
const FORMER_SCHEDULE_ATTRIBUTES = [
  'cronLastRun',
  'cronNextRun',
  'claimedAt',
  'manualRunAt',
  'DuePK',
  'DueSK',
];

/** How many times one workflow is read again when a write (a claim, an edit) lands between. */
const ATTEMPTS = 5;

/** What a migration run did. */
export interface MigrationRun {
  /** Workflow items read through the list index. */
  readonly read: number;
  /** Workflows given their schedule item, or moved to the list's partition from a former layout. */
  readonly migrated: number;
  /** Workflows not migrated: changed at every attempt; run the command again. */
  readonly failed: number;
}

/**
 * Moves workflows of the shape before schedule items to the current one (and out of a former list
 * partition, into the list's one), reading through the list index, each in a transaction
 * conditional on what it read: idempotent and safe beside the running application.
 */
export async function migrateWorkflows(table: Table, pageSize = 100): Promise<MigrationRun> {
  let read = 0;
  let migrated = 0;
  let failed = 0;
  for (const partition of formerWorkflowListPartitions()) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await table.doc.send(
        new QueryCommand({
          TableName: table.name,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': partition },
          ExclusiveStartKey: startKey,
          Limit: pageSize,
        }),
      );
      const items = page.Items ?? [];
      read += items.length;
      const present = new Set(
        (
          await batchGetAll(
            table,
            items.map((item) => scheduleKey(item.id as string)),
            { consistent: true, projection: 'PK' },
          )
        ).map((schedule) => schedule.PK),
      );
      for (const item of items) {
        if (present.has(item.PK)) {
          if (item.GSI1PK !== WORKFLOWS_PARTITION && (await moveToList(table, item))) migrated++;
          continue;
        }
        if (await migrateOne(table, item)) migrated++;
        else failed++;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return { read, migrated, failed };
}

/**
 * Moves a workflow item that has its schedule item to the list's partition; conditional on the
 * list key read, so an edit that moved it meanwhile stands. False when there was nothing left to do.
 */
async function moveToList(table: Table, item: Record<string, unknown>): Promise<boolean> {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: workflowKey(item.id as string),
        UpdateExpression: 'SET GSI1PK = :list',
        ConditionExpression: 'GSI1PK = :read',
        ExpressionAttributeValues: {
          ':list': WORKFLOWS_PARTITION,
          ':read': item.GSI1PK,
        },
      }),
    );
    return true;
  } catch (error) {
    // Deleted or moved by an edit meanwhile (every write puts the item in the list's partition).
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Migrates one workflow item, read again after each refused attempt; false when it never held. */
async function migrateOne(table: Table, first: Record<string, unknown>): Promise<boolean> {
  let item: Record<string, unknown> | undefined = first;
  for (let attempt = 0; attempt < ATTEMPTS && item; attempt++) {
    try {
      await table.doc.send(new TransactWriteCommand({ TransactItems: migrationOf(table, item) }));
      return true;
    } catch (error) {
      if (!isConditionFailure(error) && !isWriteConflict(error)) throw error;
    }
    const id = item.id as string;
    const [{ Item }, { Item: schedule }] = await Promise.all([
      table.doc.send(new GetCommand({ TableName: table.name, Key: workflowKey(id), ConsistentRead: true })),
      table.doc.send(new GetCommand({ TableName: table.name, Key: scheduleKey(id), ConsistentRead: true })),
    ]);
    // Deleted, or migrated by another run of the command meanwhile: nothing left to do.
    if (!Item || schedule) return true;
    item = Item;
  }
  return false;
}

/** The transaction that migrates a workflow item as read. */
function migrationOf(table: Table, item: Record<string, unknown>) {
  const record = toScheduleRecord(item);
  const held = Object.fromEntries(
    ['claimedAt', 'manualRunAt']
      .filter((attribute) => typeof item[attribute] === 'string')
      .map((attribute) => [attribute, item[attribute]]),
  );
  // Unchanged since read: every former schedule attribute as it was (absent, null or its value),
  // and the version, which every edit and switch moves.
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':updatedAt': item.updatedAt };
  const conditions = FORMER_SCHEDULE_ATTRIBUTES.map((attribute, index) => {
    names[`#a${index}`] = attribute;
    const value = item[attribute];
    if (value === undefined) return `attribute_not_exists(#a${index})`;
    if (value === null) {
      values[':nullType'] = 'NULL';
      return `attribute_type(#a${index}, :nullType)`;
    }
    values[`:a${index}`] = value;
    return `#a${index} = :a${index}`;
  });
  values[':list'] = WORKFLOWS_PARTITION;
  return [
    {
      Put: {
        TableName: table.name,
        Item: {
          ...scheduleItem(
            record,
            typeof item.updatedAt === 'string' ? item.updatedAt : new Date().toISOString(),
          ),
          ...held,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Update: {
        TableName: table.name,
        Key: workflowKey(item.id as string),
        UpdateExpression: `SET GSI1PK = :list REMOVE ${Object.keys(names).join(', ')}`,
        ConditionExpression: ['updatedAt = :updatedAt', ...conditions].join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
}
