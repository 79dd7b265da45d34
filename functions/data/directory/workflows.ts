import {
  BatchWriteCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/core/ports';
import type { Workflows } from '../../domain/directory/ports';
import {
  type WorkflowChanges,
  WorkflowNotFoundError,
  type WorkflowRecord,
} from '../../domain/directory/ports';
import { type SchedulableWorkflow, withFirstDue } from '../../domain/scheduling/due-slots';
import type { ScheduleRecord } from '../../domain/scheduling/ports';
import { batchGetAll } from '../table/batch-get';
import { dueIndexKeys, scheduleUnchangedCondition } from '../table/due-index';
import { createdSortKey } from '../table/keys';
import { indexPageKey, queryPage } from '../table/page-cursor';
import { queryAll } from '../table/query-all';
import { pageShardedList, type ShardedList } from '../table/sharded-list';
import { applied, isConditionFailure, isWriteConflict, type Table } from '../table/table';
import {
  allWorkflowListPartitions,
  failingWorkflowKey,
  scheduleKey,
  WORKFLOWS_PARTITION,
  workflowFolderPartition,
  workflowKey,
  workflowListPartition,
  workflowOwnerPartition,
} from './keys';

/** The fields the workflow item stores: every field but the schedule state. */
const WORKFLOW_ITEM_FIELDS = [
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
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof WorkflowRecord)[];

/**
 * The workflow fields the schedule item copies, so that a claimer sends a run without reading the
 * workflow: its name (the scheduler's result list), owner (the firm: the SQS message group), type
 * and interval (the next slot), and the two flags a claim is conditional on. Any write that changes
 * one writes both items in one transaction.
 */
const SCHEDULE_COPIES = ['name', 'lawyerEmail', 'type', 'cronInterval', 'active', 'cronEnabled'] as const;

/** The schedule state: what a claim, a release and a recorded run write, on the schedule item alone. */
const SCHEDULE_STATE = ['cronLastRun', 'cronNextRun'] as const;

/** The projection of a list's join: the two schedule fields a list shows, and the key to match. */
const LIST_SCHEDULE_PROJECTION = `PK, ${SCHEDULE_STATE.join(', ')}`;

const pick = (item: object, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, (item as Record<string, unknown>)[field] ?? null]));

/** A workflow from its workflow item and, when there is one, its schedule item (or the part of it read). */
export function toWorkflowRecord(
  item: Record<string, unknown>,
  schedule?: Record<string, unknown>,
): WorkflowRecord {
  const record = {
    ...pick(item, WORKFLOW_ITEM_FIELDS),
    ...pick(schedule ?? {}, SCHEDULE_STATE),
  } as unknown as WorkflowRecord;
  // Stored before tags existed: none.
  return { ...record, tags: Array.isArray(item.tags) ? (item.tags as string[]) : [] };
}

export function toScheduleRecord(item: Record<string, unknown>): ScheduleRecord {
  return pick(item, ['id', ...SCHEDULE_COPIES, ...SCHEDULE_STATE]) as unknown as ScheduleRecord;
}

/** The list-index attributes of a workflow item: all-list, owner list and, when it has one, its folder. */
function listIndexKeys(record: WorkflowRecord) {
  const sortKey = createdSortKey(record.createdAt, record.id);
  return {
    GSI1PK: workflowListPartition(record.id),
    GSI1SK: sortKey,
    GSI2PK: workflowOwnerPartition(record.lawyerEmail),
    GSI2SK: sortKey,
    ...(record.folderId ? { GSI3PK: workflowFolderPartition(record.folderId), GSI3SK: sortKey } : {}),
  };
}

/** The workflow item of a workflow: its fields and list-index keys, no schedule state. */
export function workflowItem(record: WorkflowRecord): Record<string, unknown> {
  return {
    ...workflowKey(record.id),
    entity: 'Workflow',
    ...listIndexKeys(record),
    ...pick(record, WORKFLOW_ITEM_FIELDS),
    tags: record.tags,
  };
}

/**
 * The schedule item of a workflow: the copies, the schedule state and, only while it is active and
 * scheduled, the sparse due-index keys (data/table/due-index.ts). No list-index key.
 */
export function scheduleItem(
  record: SchedulableWorkflow & Pick<WorkflowRecord, 'name' | 'lawyerEmail'>,
  /** When it is written: a workflow scheduled without a run yet is due from then. */
  at: string,
): Record<string, unknown> {
  const scheduled = withFirstDue(record, at);
  return {
    ...scheduleKey(record.id),
    entity: 'Schedule',
    ...pick(scheduled, ['id', ...SCHEDULE_COPIES, ...SCHEDULE_STATE]),
    ...(dueIndexKeys(scheduled) ?? {}),
  };
}

/** An UpdateItem's expression and names/values from the attributes to set and to remove. */
function updateOf(set: Record<string, unknown>, remove: readonly string[] = []) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = Object.entries(set).map(([attribute, value], index) => {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  const removals = remove.map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  return {
    UpdateExpression: `SET ${assignments.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * What a write of `next` (read as `current`) sets on the schedule item besides the copies: the
 * due-index keys while scheduled (removed otherwise), and the first due time of a workflow it
 * puts in the schedule without a run yet ({@link withFirstDue}).
 */
function dueKeysUpdate(current: SchedulableWorkflow, next: SchedulableWorkflow) {
  const due = dueIndexKeys(next);
  if (!due) return { set: {}, remove: ['DuePK', 'DueSK'] };
  const firstDue = next.cronNextRun !== current.cronNextRun ? { cronNextRun: next.cronNextRun } : {};
  return { set: { ...due, ...firstDue }, remove: [] };
}

/** Every workflow in GSI1, newest first, over the list's shards. */
const WORKFLOW_LIST: ShardedList = {
  name: WORKFLOWS_PARTITION,
  index: 'GSI1',
  partitions: allWorkflowListPartitions(),
};

/** Workflows (spec §7 workflows calls). */
export class WorkflowRepository implements Workflows {
  constructor(private readonly table: Table) {}

  /** Writes the workflow item and its schedule item, together. */
  async create(record: WorkflowRecord): Promise<void> {
    await this.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [workflowItem(record), scheduleItem(record, record.updatedAt)].map((Item) => ({
          Put: { TableName: this.table.name, Item, ConditionExpression: 'attribute_not_exists(PK)' },
        })),
      }),
    );
  }

  /** A workflow with its schedule state: both items in one strongly consistent BatchGetItem. */
  async getById(id: string): Promise<WorkflowRecord | null> {
    const items = await batchGetAll(this.table, [workflowKey(id), scheduleKey(id)], { consistent: true });
    const workflow = items.find((item) => item.SK === workflowKey(id).SK);
    return workflow
      ? toWorkflowRecord(
          workflow,
          items.find((item) => item.SK === scheduleKey(id).SK),
        )
      : null;
  }

  /**
   * Several workflows with their schedule state, by id, in as few BatchGetItems as their items
   * need (100 keys each, sent at once), in the order of `ids`; an id without a workflow is left out.
   */
  async getMany(ids: readonly string[]): Promise<WorkflowRecord[]> {
    const items = await batchGetAll(
      this.table,
      ids.flatMap((id) => [workflowKey(id), scheduleKey(id)]),
    );
    const found = new Map(items.map((item) => [`${item.PK}\n${item.SK}`, item]));
    const itemOf = (key: { readonly PK: string; readonly SK: string }) => found.get(`${key.PK}\n${key.SK}`);
    return ids.flatMap((id) => {
      const workflow = itemOf(workflowKey(id));
      return workflow ? [toWorkflowRecord(workflow, itemOf(scheduleKey(id)))] : [];
    });
  }

  /** One page of all workflows, newest first, over the list's shards (functions/data/table/sharded-list.ts). */
  async page(limit: number, cursor?: string): Promise<Page<WorkflowRecord>> {
    const page = await pageShardedList(this.table, WORKFLOW_LIST, limit, cursor);
    return { items: await this.withSchedules(page.items), nextCursor: page.nextCursor };
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

  /**
   * Applies an admin's changes, conditional on the version read; a change the schedule item copies
   * rewrites it in the same transaction, unless the scheduler claimed the slot since the read. The
   * schedule state itself is never written here.
   */
  async update(id: string, changes: WorkflowChanges, now: string): Promise<WorkflowRecord> {
    const current = await this.getById(id);
    if (!current) throw new WorkflowNotFoundError();
    const edited = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const copies = SCHEDULE_COPIES.filter((field) => field in edited && edited[field] !== current[field]);
    const edit: WorkflowRecord = { ...current, ...edited, updatedAt: now };
    // The schedule item is written only when a copy changes; only then can the edit schedule it.
    const next = copies.length > 0 ? withFirstDue(edit, now) : edit;
    const listKeys: Record<string, unknown> = listIndexKeys(next);
    // The owner and folder lists' keys follow the edit; leaving a folder leaves its index.
    const moved = Object.fromEntries(
      ['GSI2PK', 'GSI3PK', 'GSI3SK']
        .filter((attribute) => listKeys[attribute] !== undefined)
        .map((attribute) => [attribute, listKeys[attribute]]),
    );
    const workflowUpdate = updateOf(
      { ...edited, updatedAt: now, ...moved },
      next.folderId ? [] : ['GSI3PK', 'GSI3SK'],
    );
    const transactItems: NonNullable<TransactWriteCommandInput['TransactItems']> = [
      {
        Update: {
          TableName: this.table.name,
          Key: workflowKey(id),
          ...workflowUpdate,
          ConditionExpression: 'updatedAt = :previous',
          ExpressionAttributeValues: {
            ...workflowUpdate.ExpressionAttributeValues,
            ':previous': current.updatedAt,
          },
        },
      },
    ];
    if (copies.length > 0) {
      const due = dueKeysUpdate(current, next);
      const scheduleUpdate = updateOf({ ...pick(next, copies), ...due.set }, due.remove);
      const schedule = scheduleUnchangedCondition(current);
      transactItems.push({
        Update: {
          TableName: this.table.name,
          Key: scheduleKey(id),
          ...scheduleUpdate,
          ConditionExpression: `attribute_exists(PK) AND ${schedule.expression}`,
          ExpressionAttributeValues: { ...scheduleUpdate.ExpressionAttributeValues, ...schedule.values },
        },
      });
    }
    const [alone] = transactItems;
    await this.changed(() =>
      transactItems.length === 1 && alone?.Update
        ? this.table.doc.send(new UpdateCommand(alone.Update))
        : this.table.doc.send(new TransactWriteCommand({ TransactItems: transactItems })),
    );
    return next;
  }

  /**
   * Flips a boolean flag (active or cronEnabled) from the value read, on both items (the schedule
   * item copies it, and moves into or out of the sparse due index with it). The write is
   * conditional on that value, so two concurrent toggles cannot both apply the same flip.
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
    const next: WorkflowRecord = withFirstDue({ ...current, [flag]: !previous, updatedAt: now }, now);
    const due = dueKeysUpdate(current, next);
    const scheduleUpdate = updateOf({ [flag]: !previous, ...due.set }, due.remove);
    await this.changed(() =>
      this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table.name,
                Key: workflowKey(id),
                UpdateExpression: 'SET #flag = :next, updatedAt = :now',
                ConditionExpression: '#flag = :current',
                ExpressionAttributeNames: { '#flag': flag },
                ExpressionAttributeValues: { ':next': !previous, ':current': previous, ':now': now },
              },
            },
            {
              Update: {
                TableName: this.table.name,
                Key: scheduleKey(id),
                ...scheduleUpdate,
                ConditionExpression: 'attribute_exists(PK)',
              },
            },
          ],
        }),
      ),
    );
    return next;
  }

  /** Removes the folder association of every workflow of a folder (the workflows stay). */
  async detachFromFolder(folderId: string, now: string): Promise<number> {
    const workflows = await this.listByFolder(folderId);
    for (const workflow of workflows) {
      // Not applied when moved to another folder meanwhile: it no longer belongs to this one.
      await applied(
        this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: workflowKey(workflow.id),
            UpdateExpression: 'SET folderId = :null, updatedAt = :now REMOVE GSI3PK, GSI3SK',
            ConditionExpression: 'folderId = :folder',
            ExpressionAttributeValues: { ':null': null, ':now': now, ':folder': folderId },
          }),
        ),
      );
    }
    return workflows.length;
  }

  /**
   * Deletes a workflow and its schedule item together, so every reader loses it at once. Its history
   * stays unreachable under its partition until it expires: the request never grows with the history.
   */
  async delete(id: string): Promise<void> {
    await this.table.doc.send(
      new TransactWriteCommand({
        // Its place in the failing set too: the dashboard and the digest would list it forever.
        TransactItems: [workflowKey(id), scheduleKey(id), failingWorkflowKey(id)].map((Key) => ({
          Delete: { TableName: this.table.name, Key },
        })),
      }),
    );
  }

  /**
   * Deletes every workflow of a lawyer (their histories left to the TTL, as `delete` does). Of each
   * batch, the schedule items go first: stopped by a failure, a re-run still finds the workflows
   * left through the owner index, and none is left scheduled without its workflow.
   */
  async deleteByOwner(lawyerEmail: string): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': workflowOwnerPartition(lawyerEmail) },
      ProjectionExpression: '#id',
      ExpressionAttributeNames: { '#id': 'id' },
    });
    const ids = items.map((item) => item.id as string);
    for (let start = 0; start < ids.length; start += 25) {
      const batch = ids.slice(start, start + 25);
      await this.deleteAll(batch.map(scheduleKey));
      await this.deleteAll(batch.map(failingWorkflowKey));
      await this.deleteAll(batch.map(workflowKey));
    }
    return ids.length;
  }

  /** Deletes up to 25 items in one BatchWriteItem, its unprocessed items sent again. */
  private async deleteAll(keys: readonly Record<string, string>[]): Promise<void> {
    let requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
    while (requests.length > 0) {
      const { UnprocessedItems } = await this.table.doc.send(
        new BatchWriteCommand({ RequestItems: { [this.table.name]: requests } }),
      );
      requests = (UnprocessedItems?.[this.table.name] ?? []) as typeof requests;
    }
  }

  /** Runs a conditional write; refused (changed or deleted meanwhile, or a concurrent write), a WorkflowNotFoundError. */
  private async changed(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isConditionFailure(error) || isWriteConflict(error)) {
        throw new WorkflowNotFoundError('Automatisation modifiée entre-temps', { cause: error });
      }
      throw error;
    }
  }

  /**
   * The records of a page of workflow items: their schedule state (the last and next run a list
   * shows) joined in one BatchGetItem of the page's schedule items, projected to those fields.
   */
  private async withSchedules(items: readonly Record<string, unknown>[]): Promise<WorkflowRecord[]> {
    if (items.length === 0) return [];
    const schedules = await batchGetAll(
      this.table,
      items.map((item) => scheduleKey(item.id as string)),
      { projection: LIST_SCHEDULE_PROJECTION },
    );
    const byPartition = new Map(schedules.map((schedule) => [schedule.PK, schedule]));
    return items.map((item) => toWorkflowRecord(item, byPartition.get(item.PK)));
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
    return { items: await this.withSchedules(page.items), nextCursor: page.nextCursor };
  }

  private async listBy(indexName: string, partitionAttribute: string, partition: string) {
    const items = await queryAll(this.table, {
      IndexName: indexName,
      KeyConditionExpression: `${partitionAttribute} = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: false,
    });
    return this.withSchedules(items);
  }
}
