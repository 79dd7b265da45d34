import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';

import type { WorkflowType } from '../../shared/constants';
import { dueIndexKeys, scheduleUnchangedCondition } from './due-index';
import {
  allWorkflowListPartitions,
  createdSortKey,
  workflowFolderPartition,
  workflowKey,
  workflowListPartition,
  workflowOwnerPartition,
} from './keys';
import { decodeCursor, encodeCursor, indexPageKey, type Page, queryPage } from './page-cursor';
import { queryAll } from './query-all';
import { isConditionFailure, type Table } from './table';

/** A workflow as stored (spec §3 workflows table, camelCase). */
export interface WorkflowRecord {
  id: string;
  name: string;
  description: string;
  webhookUrl: string;
  lawyerEmail: string;
  active: boolean;
  type: WorkflowType;
  folderId: string | null;
  /** Display fields an admin sets (spec §3): free labels, none for a workflow stored before them. */
  tags: string[];
  category: string | null;
  cronEnabled: boolean;
  cronInterval: number | null;
  cronLastRun: string | null;
  cronNextRun: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields an admin edits (spec: update by id). */
export type WorkflowChanges = Partial<
  Pick<
    WorkflowRecord,
    | 'name'
    | 'description'
    | 'webhookUrl'
    | 'lawyerEmail'
    | 'type'
    | 'folderId'
    | 'tags'
    | 'category'
    | 'cronEnabled'
    | 'cronInterval'
  >
>;

const WORKFLOW_FIELDS = [
  'id',
  'name',
  'description',
  'webhookUrl',
  'lawyerEmail',
  'active',
  'type',
  'folderId',
  'tags',
  'category',
  'cronEnabled',
  'cronInterval',
  'cronLastRun',
  'cronNextRun',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof WorkflowRecord)[];

export function toWorkflowRecord(item: Record<string, unknown>): WorkflowRecord {
  const record = Object.fromEntries(
    WORKFLOW_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as WorkflowRecord;
  // Stored before tags existed: none.
  return { ...record, tags: Array.isArray(item.tags) ? (item.tags as string[]) : [] };
}

/** The indexed attributes of a workflow: all-list, owner list and, when it has one, its folder. */
function indexKeys(record: WorkflowRecord) {
  const sortKey = createdSortKey(record.createdAt, record.id);
  return {
    GSI1PK: workflowListPartition(record.id),
    GSI1SK: sortKey,
    GSI2PK: workflowOwnerPartition(record.lawyerEmail),
    GSI2SK: sortKey,
    ...(record.folderId ? { GSI3PK: workflowFolderPartition(record.folderId), GSI3SK: sortKey } : {}),
    // Sparse due index: only while active and scheduled (functions/data/due-index.ts).
    ...(dueIndexKeys(record) ?? {}),
  };
}

/** The cursor of the all-workflows list: the last sort key shown, and nothing else. */
const AllWorkflowsCursor = z.strictObject({
  after: z.string().regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[\w-]{1,100}$/),
});

/** No workflow has that id. */
export class WorkflowNotFoundError extends Error {
  override name = 'WorkflowNotFoundError';
}

/** Workflows (spec §7 workflows calls). */
export class WorkflowRepository {
  constructor(private readonly table: Table) {}

  async create(record: WorkflowRecord): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...workflowKey(record.id), entity: 'Workflow', ...indexKeys(record), ...record },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async getById(id: string): Promise<WorkflowRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: workflowKey(id), ConsistentRead: true }),
    );
    return Item ? toWorkflowRecord(Item) : null;
  }

  /**
   * One page of all workflows, newest first, over the list's shards (and the single partition of
   * items not rewritten since): the newest `limit` of each shard after the cursor, merged. The
   * cursor is the last sort key shown (`<createdAt>#<id>`, unique), which orders every shard alike.
   */
  async page(limit: number, cursor?: string): Promise<Page<WorkflowRecord>> {
    const after =
      cursor === undefined ? undefined : (decodeCursor(cursor, AllWorkflowsCursor).after as string);
    const shards = await Promise.all(
      allWorkflowListPartitions().map(async (partition) => {
        const { Items = [], LastEvaluatedKey } = await this.table.doc.send(
          new QueryCommand({
            TableName: this.table.name,
            IndexName: 'GSI1',
            KeyConditionExpression: after ? 'GSI1PK = :pk AND GSI1SK < :after' : 'GSI1PK = :pk',
            ExpressionAttributeValues: after ? { ':pk': partition, ':after': after } : { ':pk': partition },
            ScanIndexForward: false,
            Limit: limit,
          }),
        );
        return { items: Items, more: LastEvaluatedKey !== undefined };
      }),
    );
    const merged = shards
      .flatMap((shard) => shard.items)
      .sort((a, b) => String(b.GSI1SK).localeCompare(String(a.GSI1SK)));
    const items = merged.slice(0, limit);
    const more = merged.length > limit || shards.some((shard) => shard.more);
    const last = items[items.length - 1];
    return {
      items: items.map(toWorkflowRecord),
      nextCursor: more && last ? encodeCursor({ after: last.GSI1SK }) : null,
    };
  }

  /** One page of a lawyer's workflows, newest first; a cursor of another lawyer's list is refused. */
  async pageByOwner(lawyerEmail: string, limit: number, cursor?: string): Promise<Page<WorkflowRecord>> {
    return this.pageBy('GSI2', 'GSI2PK', workflowOwnerPartition(lawyerEmail), limit, cursor);
  }

  /** The workflows of one lawyer, newest first (spec: list by notary_email). */
  async listByOwner(lawyerEmail: string): Promise<WorkflowRecord[]> {
    return this.listBy('GSI2', 'GSI2PK', workflowOwnerPartition(lawyerEmail));
  }

  /** The workflows of one folder, newest first. */
  async listByFolder(folderId: string): Promise<WorkflowRecord[]> {
    return this.listBy('GSI3', 'GSI3PK', workflowFolderPartition(folderId));
  }

  /** Applies an admin's changes and returns the workflow as it now is. */
  /**
   * Writes the edited fields and the index keys they move, and nothing else: attributes this
   * method does not own (the manual-run lock, the last run the worker records) stay as they are.
   * Conditional on the version read, and on the scheduler not having claimed the slot since.
   */
  async update(id: string, changes: WorkflowChanges, now: string): Promise<WorkflowRecord> {
    const current = await this.getById(id);
    if (!current) throw new WorkflowNotFoundError();
    const edited = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const next: WorkflowRecord = { ...current, ...edited, updatedAt: now };
    const keys: Record<string, unknown> = indexKeys(next);
    const set: Record<string, unknown> = { ...edited, updatedAt: now };
    // Index keys the change removes: leaving a folder, or leaving the due index.
    const removed = [
      ...(next.folderId ? [] : ['GSI3PK', 'GSI3SK']),
      ...(keys.DuePK === undefined ? ['DuePK', 'DueSK'] : []),
    ];
    // GSI1PK too: an item of the single-partition list moves to its shard at its next edit.
    for (const attribute of ['GSI1PK', 'GSI2PK', 'GSI3PK', 'GSI3SK', 'DuePK', 'DueSK']) {
      if (keys[attribute] !== undefined) set[attribute] = keys[attribute];
    }
    const names = Object.fromEntries(Object.keys(set).map((field, index) => [`#f${index}`, field]));
    const values = Object.fromEntries(Object.values(set).map((value, index) => [`:v${index}`, value]));
    const assignments = Object.keys(names).map((name, index) => `${name} = :v${index}`);
    const removals = removed.map((attribute) => {
      const name = `#r${attribute}`;
      names[name] = attribute;
      return name;
    });
    const schedule = scheduleUnchangedCondition(current);
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: workflowKey(id),
          UpdateExpression: `SET ${assignments.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
          ConditionExpression: `updatedAt = :previous AND ${schedule.expression}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ':previous': current.updatedAt, ...schedule.values },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new WorkflowNotFoundError('Automatisation modifiée entre-temps');
      throw error;
    }
    return next;
  }

  /**
   * Flips a boolean flag (active or cronEnabled) from the value read: the write is conditional on
   * that value, so two concurrent toggles cannot both apply the same flip.
   */
  async toggle(
    id: string,
    flag: 'active' | 'cronEnabled',
    now: string,
    /** Flip only from this value (the automatic pause, 'Reprendre'); by default from the value read. */
    from?: boolean,
  ): Promise<WorkflowRecord> {
    const current = await this.getById(id);
    if (!current) throw new WorkflowNotFoundError();
    const previous = from ?? current[flag];
    // The flip moves the workflow into or out of the sparse due index (only active and scheduled).
    const due = dueIndexKeys({ ...current, [flag]: !previous });
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: workflowKey(id),
          UpdateExpression: due
            ? 'SET #flag = :next, updatedAt = :now, DuePK = :duePk, DueSK = :dueSk'
            : 'SET #flag = :next, updatedAt = :now REMOVE DuePK, DueSK',
          ConditionExpression: '#flag = :current',
          ExpressionAttributeNames: { '#flag': flag },
          ExpressionAttributeValues: {
            ':next': !previous,
            ':current': previous,
            ':now': now,
            ...(due ? { ':duePk': due.DuePK, ':dueSk': due.DueSK } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toWorkflowRecord(Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) throw new WorkflowNotFoundError('Automatisation modifiée entre-temps');
      throw error;
    }
  }

  /** Removes the folder association of every workflow of a folder (the workflows stay). */
  async detachFromFolder(folderId: string, now: string): Promise<number> {
    const workflows = await this.listByFolder(folderId);
    for (const workflow of workflows) {
      await this.table.doc
        .send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: workflowKey(workflow.id),
            UpdateExpression: 'SET folderId = :null, updatedAt = :now REMOVE GSI3PK, GSI3SK',
            ConditionExpression: 'folderId = :folder',
            ExpressionAttributeValues: { ':null': null, ':now': now, ':folder': folderId },
          }),
        )
        .catch((error: unknown) => {
          // Moved to another folder meanwhile: it no longer belongs to this one, nothing to undo.
          if (!isConditionFailure(error)) throw error;
        });
    }
    return workflows.length;
  }

  /**
   * Deletes a workflow: the item every screen, the scheduler and the worker read, so it is gone
   * for all of them at once. Its history (executions, dispatch markers) stays under the deleted
   * workflow's partition, unreachable (every read of it starts from the workflow, and the worker
   * records nothing for a workflow that no longer exists), until its TTL removes it within 30 days:
   * the request's cost never depends on the history's size.
   */
  async delete(id: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: workflowKey(id) }));
  }

  /** Deletes every workflow of a lawyer (their histories left to the TTL, as `delete` does). */
  async deleteByOwner(lawyerEmail: string): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': workflowOwnerPartition(lawyerEmail) },
      ProjectionExpression: 'PK, SK',
    });
    for (let start = 0; start < items.length; start += 25) {
      let requests = items
        .slice(start, start + 25)
        .map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } }));
      while (requests.length > 0) {
        const { UnprocessedItems } = await this.table.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.table.name]: requests } }),
        );
        requests = (UnprocessedItems?.[this.table.name] ?? []) as typeof requests;
      }
    }
    return items.length;
  }

  private async pageBy(
    indexName: string,
    partitionAttribute: 'GSI1PK' | 'GSI2PK',
    partition: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<Page<WorkflowRecord>> {
    const page = await queryPage(
      this.table,
      {
        IndexName: indexName,
        KeyConditionExpression: `${partitionAttribute} = :pk`,
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
      },
      indexPageKey(partitionAttribute, partition),
      limit,
      cursor,
    );
    return { items: page.items.map(toWorkflowRecord), nextCursor: page.nextCursor };
  }

  private async listBy(indexName: string, partitionAttribute: string, partition: string) {
    const items = await queryAll(this.table, {
      IndexName: indexName,
      KeyConditionExpression: `${partitionAttribute} = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: false,
    });
    return items.map(toWorkflowRecord);
  }
}
