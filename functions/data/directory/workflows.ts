import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';

import type { WorkflowHealthFilter } from '../../../shared/schemas/directory';
import type {
  JoinedWrite,
  JoinedWritesOf,
  OwnerName,
  WorkflowChanges,
  WorkflowPage,
  WorkflowQuery,
  WorkflowRecord,
  Workflows,
} from '../../domain/directory/ports';
import { WorkflowNotFoundError } from '../../domain/directory/ports';
import { searchText } from '../../domain/directory/search-terms';
import { counterDeltas } from '../../domain/directory/workflow-counts';
import { type SchedulableWorkflow, withFirstDue } from '../../domain/scheduling/due-slots';
import type { ScheduleRecord } from '../../domain/scheduling/ports';
import { batchGetAll } from '../table/batch-get';
import { dueIndexKeys, scheduleUnchangedCondition } from '../table/due-index';
import { createdSortKey } from '../table/keys';
import { queryAll } from '../table/query-all';
import { type ItemFilter, pageShardedList, type ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import { applied, isConditionFailure, isWriteConflict } from '../table/table-errors';
import { counterWrites, type TransactItem } from './counters';
import { joinedItem } from './joined-writes';
import {
  FAILING_LIST_NAME,
  FAILING_SORT_KEY,
  failingPartitions,
  failingWorkflowKey,
  ownerCountersKey,
  PAUSED_PARTITION,
  scheduleKey,
  WORKFLOWS_PARTITION,
  workflowFolderPartition,
  workflowHealthKey,
  workflowKey,
  workflowOwnerPartition,
} from './keys';
import {
  listFilterTag,
  pageSearch,
  READ_BUDGET,
  type SearchableItem,
  searchEntryWrites,
  wordsFilter,
} from './search-index';

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
const LIST_SCHEDULE_PROJECTION = `PK, ${SCHEDULE_STATE.join(', ')}, firstName, lastName`;

/** Copies `fields` of `from` into `into`, a missing one as null. A loop: a list page copies 50 items. */
function copyFields(into: Record<string, unknown>, from: object, fields: readonly string[]) {
  for (const field of fields) into[field] = (from as Record<string, unknown>)[field] ?? null;
  return into;
}

const pick = (item: object, fields: readonly string[]) => copyFields({}, item, fields);

/** A workflow from its workflow item and, when there is one, its schedule item (or the part of it read). */
export function toWorkflowRecord(
  item: Record<string, unknown>,
  schedule?: Record<string, unknown>,
): WorkflowRecord {
  const record = copyFields(copyFields({}, item, WORKFLOW_ITEM_FIELDS), schedule ?? {}, SCHEDULE_STATE);
  // Stored before tags existed: none.
  record.tags = Array.isArray(item.tags) ? item.tags : [];
  return record as unknown as WorkflowRecord;
}

export function toScheduleRecord(item: Record<string, unknown>): ScheduleRecord {
  return pick(item, ['id', ...SCHEDULE_COPIES, ...SCHEDULE_STATE]) as unknown as ScheduleRecord;
}

/** The list-index attributes of a workflow item: all-list, owner list and, when it has one, its folder. */
function listIndexKeys(record: WorkflowRecord) {
  const sortKey = createdSortKey(record.createdAt, record.id);
  return {
    GSI1PK: WORKFLOWS_PARTITION,
    GSI1SK: sortKey,
    GSI2PK: workflowOwnerPartition(record.lawyerEmail),
    GSI2SK: sortKey,
    ...(record.folderId ? { GSI3PK: workflowFolderPartition(record.folderId), GSI3SK: sortKey } : {}),
  };
}

/**
 * The workflow item of a workflow: its fields and list-index keys, no schedule state; its search
 * text holds its lawyer's name (`ownerName`: his first and last name, none without a profile).
 */
export function workflowItem(
  record: WorkflowRecord,
  ownerName: readonly string[] = [],
): Record<string, unknown> {
  return {
    ...workflowKey(record.id),
    entity: 'Workflow',
    ...listIndexKeys(record),
    ...pick(record, WORKFLOW_ITEM_FIELDS),
    tags: record.tags,
    search: searchText([...searchedTexts(record), ...ownerName]),
  };
}

/** What an automation is searched by: its name and description (spec §2), its category and tags. */
const searchedTexts = (record: Pick<WorkflowRecord, 'name' | 'description' | 'category' | 'tags'>) => [
  record.name,
  record.description,
  record.category,
  ...record.tags,
];

/** A workflow as the search index sees it: its own texts and its lawyer's name. */
const searchable = (record: WorkflowRecord, ownerName: readonly string[]): SearchableItem => ({
  partition: workflowKey(record.id).PK,
  id: record.id,
  sortKey: createdSortKey(record.createdAt, record.id),
  texts: [...searchedTexts(record), ...ownerName],
});

/** The lawyers' names a change of a workflow's search entries is made with (before, after). */
interface OwnerNames {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/** The search entries of a new workflow, as items (a bulk load's; the application writes them in its creation). */
export function searchEntryItems(
  table: Table,
  record: WorkflowRecord,
  ownerName: readonly string[] = [],
): Record<string, unknown>[] {
  return searchEntryWrites(table, 'WORKFLOWS', null, searchable(record, ownerName)).flatMap((write) =>
    write.Put?.Item ? [write.Put.Item] : [],
  );
}

/**
 * The writes of a workflow's counters for a change from `before` to `after`, and of its search
 * entries when the change may move them (`names`: its lawyers' names; none for a toggle).
 */
function directoryWrites(
  table: Table,
  before: WorkflowRecord | null,
  after: WorkflowRecord | null,
  names?: OwnerNames,
): TransactItem[] {
  return [
    ...counterWrites(table, counterDeltas(before, after)),
    ...(names
      ? searchEntryWrites(
          table,
          'WORKFLOWS',
          before && searchable(before, names.before),
          after && searchable(after, names.after),
        )
      : []),
  ];
}

/** How many times a write that found its workflow changed meanwhile reads it again. */
const ATTEMPTS = 5;

/** The DynamoDB filter of a query's criteria over a list's items, or none when it asks for none. */
function workflowFilter(query: WorkflowQuery, words: readonly string[]): ItemFilter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (words.length > 0) {
    const search = wordsFilter(words);
    parts.push(search.expression);
    Object.assign(names, search.names);
    Object.assign(values, search.values);
  }
  // The state, scheduling, type and folder asked for: each an attribute equal to a value.
  const equal = {
    active: query.active,
    cronEnabled: query.scheduled,
    type: query.type,
    folderId: query.folderId,
  };
  for (const [attribute, value] of Object.entries(equal)) {
    if (value === undefined) continue;
    parts.push(`#${attribute} = :${attribute}`);
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
  }
  return parts.length > 0 ? { expression: parts.join(' AND '), names, values } : undefined;
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

/** The condition that a workflow item is in `folderId` (null: in none). */
function sameFolderCondition(folderId: string | null) {
  return folderId
    ? { expression: 'folderId = :folder', values: { ':folder': folderId } }
    : {
        expression: '(attribute_not_exists(folderId) OR attribute_type(folderId, :nullType))',
        values: { ':nullType': 'NULL' },
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

/** Every workflow in GSI1, newest first: one partition, one Query a page. */
const WORKFLOW_LIST: ShardedList = {
  name: WORKFLOWS_PARTITION,
  index: 'GSI1',
  partitions: [WORKFLOWS_PARTITION],
};

/**
 * The lists of a health filter, each item naming its workflow (`workflowId`): the paused list
 * (health items while the automatic pause holds, latest pause first) and the failing set
 * (longest streak first), both sparse: a page reads about a page of them, however many workflows
 * there are.
 */
const HEALTH_LISTS: Record<WorkflowHealthFilter, ShardedList> = {
  paused: { name: PAUSED_PARTITION, index: 'GSI1', partitions: [PAUSED_PARTITION] },
  failing: {
    name: FAILING_LIST_NAME,
    index: 'GSI1',
    partitions: failingPartitions(),
    sortKey: z.string().regex(FAILING_SORT_KEY),
  },
};

/** Whether a workflow item holds every word (as DynamoDB's `wordsFilter` reads its `search`). */
const hasWords = (item: Record<string, unknown>, words: readonly string[]) =>
  words.every((word) => typeof item.search === 'string' && item.search.includes(` ${word}`));

/** Workflows (spec §7 workflows calls). */
export class WorkflowRepository implements Workflows {
  constructor(private readonly table: Table) {}

  /** Writes the workflow item and its schedule item, together (with `alsoWrite`: its audit entry...). */
  async create(record: WorkflowRecord, alsoWrite: readonly JoinedWrite[] = []): Promise<void> {
    const ownerName = await this.ownerNameOf(record.lawyerEmail);
    await this.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          ...[workflowItem(record, ownerName), scheduleItem(record, record.updatedAt)].map((Item) => ({
            Put: { TableName: this.table.name, Item, ConditionExpression: 'attribute_not_exists(PK)' },
          })),
          // Its counters and search entries with it; its folder's counters only while it exists.
          ...directoryWrites(this.table, null, record, { before: [], after: ownerName }),
          ...alsoWrite.map((write) => joinedItem(this.table, write)),
        ],
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

  /**
   * One page of workflows, newest first: everyone's, one owner's or one
   * folder's, kept to those matching the search, the flags and the type asked for. A search over
   * everyone's reads the search index; every other filter is DynamoDB's over the list, at most
   * `READ_BUDGET` pages a page (the page is then shorter, possibly empty, and the next goes on).
   */
  async find(query: WorkflowQuery): Promise<WorkflowPage> {
    if (query.health) return this.findByHealth(query, query.health);
    const words = query.terms?.words ?? [];
    // One lawyer's list: a member's own, or the one an admin filters by.
    const owner = query.ownerEmail ?? query.lawyerEmail;
    // Within one lawyer's list a folder is a filter; else the folder's own list.
    const criteria = { ...query, folderId: owner ? query.folderId : undefined };
    // The criteria's digest binds a filtered page's cursor to them; an unfiltered page needs none.
    const tagOf = () =>
      listFilterTag({
        words,
        folderId: criteria.folderId,
        active: query.active,
        scheduled: query.scheduled,
        type: query.type,
      });
    if (!owner && !query.folderId && query.terms && query.terms.keyed.length > 0) {
      const page = await pageSearch(this.table, {
        list: 'WORKFLOWS',
        terms: query.terms,
        limit: query.limit,
        cursor: query.cursor,
        tag: tagOf(),
        budget: READ_BUDGET,
      });
      const found = await this.getMany(page.ids);
      // The flags are the workflows' own, not their entries': kept to those asked for here.
      const kept = found.filter(
        (workflow) =>
          (query.active === undefined || workflow.active === query.active) &&
          (query.scheduled === undefined || workflow.cronEnabled === query.scheduled) &&
          (query.type === undefined || workflow.type === query.type),
      );
      const owners = query.ownerEmail
        ? []
        : await this.ownerNames(kept.map((workflow) => workflow.lawyerEmail));
      return { items: kept, nextCursor: page.nextCursor, owners };
    }
    const single = (index: 'GSI2' | 'GSI3', partition: string): ShardedList => ({
      name: partition,
      index,
      partitions: [partition],
    });
    const list = owner
      ? single('GSI2', workflowOwnerPartition(owner))
      : query.folderId
        ? single('GSI3', workflowFolderPartition(query.folderId))
        : WORKFLOW_LIST;
    const filter = workflowFilter(criteria, words);
    const page = await pageShardedList(
      this.table,
      list,
      query.limit,
      query.cursor,
      filter ? { filter, tag: tagOf(), budget: READ_BUDGET } : undefined,
    );
    const joined = await this.withSchedulesAndOwners(page.items, !query.ownerEmail);
    return { ...joined, nextCursor: page.nextCursor };
  }

  /**
   * One page of the workflows of a health list (paused, failing), in its order, kept to the other
   * criteria here: a page of the list's items (one Query, or one per shard of the failing set),
   * their workflows and schedules in one BatchGetItem, and their lawyers' names. A paused one
   * switched on again by hand is no longer 'Suspendue' and is left out, as one deleted since.
   */
  private async findByHealth(query: WorkflowQuery, health: WorkflowHealthFilter): Promise<WorkflowPage> {
    const words = query.terms?.words ?? [];
    const owner = query.ownerEmail ?? query.lawyerEmail;
    const criteria = {
      words,
      owner,
      folderId: query.folderId,
      active: query.active,
      scheduled: query.scheduled,
      type: query.type,
      health,
    };
    const page = await pageShardedList(this.table, HEALTH_LISTS[health], query.limit, query.cursor, {
      tag: listFilterTag(criteria),
    });
    const ids = page.items.map((item) => item.workflowId as string);
    const found = await batchGetAll(
      this.table,
      ids.flatMap((id) => [workflowKey(id), scheduleKey(id)]),
    );
    const byKey = new Map(found.map((item) => [`${item.PK}\n${item.SK}`, item]));
    const itemOf = (key: { readonly PK: string; readonly SK: string }) => byKey.get(`${key.PK}\n${key.SK}`);
    const kept = ids.flatMap((id) => {
      const item = itemOf(workflowKey(id));
      if (!item) return [];
      const record = toWorkflowRecord(item, itemOf(scheduleKey(id)));
      const matches =
        (owner === undefined || record.lawyerEmail === owner) &&
        (query.folderId === undefined || record.folderId === query.folderId) &&
        (query.active === undefined || record.active === query.active) &&
        (query.scheduled === undefined || record.cronEnabled === query.scheduled) &&
        (query.type === undefined || record.type === query.type) &&
        (health !== 'paused' || !(record.active && record.cronEnabled)) &&
        hasWords(item, words);
      return matches ? [record] : [];
    });
    const owners = query.ownerEmail
      ? []
      : await this.ownerNames(kept.map((workflow) => workflow.lawyerEmail));
    return { items: kept, nextCursor: page.nextCursor, owners };
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
   * counters and search entries it moves go in the same transaction; the schedule state never.
   */
  async update(
    id: string,
    changes: WorkflowChanges,
    now: string,
    alsoWrite?: JoinedWritesOf<WorkflowRecord>,
  ): Promise<WorkflowRecord> {
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
    // Its words or its lawyer changed: its search text and entries follow, with the names as now.
    const reindexed =
      searchText(searchedTexts(next)) !== searchText(searchedTexts(current)) ||
      next.lawyerEmail !== current.lawyerEmail;
    const names: OwnerNames | undefined = reindexed
      ? {
          before: await this.ownerNameOf(current.lawyerEmail),
          after: await this.ownerNameOf(next.lawyerEmail),
        }
      : undefined;
    const workflowUpdate = updateOf(
      {
        ...edited,
        updatedAt: now,
        ...moved,
        ...(names ? { search: searchText([...searchedTexts(next), ...names.after]) } : {}),
      },
      next.folderId ? [] : ['GSI3PK', 'GSI3SK'],
    );
    const transactItems: TransactItem[] = [
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
      ...directoryWrites(this.table, current, next, names),
      ...(alsoWrite?.(next) ?? []).map((write) => joinedItem(this.table, write)),
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
   * item copies it, and moves into or out of the sparse due index with it), and the counters it
   * moves. The write is conditional on that value, and on the owner and folder read (whose
   * counters it moves), so two concurrent toggles cannot both apply the same flip.
   */
  async toggle(
    id: string,
    flag: 'active' | 'cronEnabled',
    now: string,
    /** Flip only from this value (the automatic pause, 'Reprendre'); by default from the value read. */
    from?: boolean,
    alsoWrite?: JoinedWritesOf<WorkflowRecord>,
  ): Promise<WorkflowRecord> {
    const current = await this.getById(id);
    if (!current) throw new WorkflowNotFoundError();
    const previous = from ?? current[flag];
    const next: WorkflowRecord = withFirstDue({ ...current, [flag]: !previous, updatedAt: now }, now);
    const due = dueKeysUpdate(current, next);
    const scheduleUpdate = updateOf({ [flag]: !previous, ...due.set }, due.remove);
    const folder = sameFolderCondition(current.folderId);
    await this.changed(() =>
      this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table.name,
                Key: workflowKey(id),
                UpdateExpression: 'SET #flag = :next, updatedAt = :now',
                ConditionExpression: `#flag = :current AND lawyerEmail = :owner AND ${folder.expression}`,
                ExpressionAttributeNames: { '#flag': flag },
                ExpressionAttributeValues: {
                  ':next': !previous,
                  ':current': previous,
                  ':now': now,
                  ':owner': current.lawyerEmail,
                  ...folder.values,
                },
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
            // Counted from the value the condition holds, not the one read.
            ...directoryWrites(this.table, { ...current, [flag]: previous }, next),
            ...(alsoWrite?.(next) ?? []).map((write) => joinedItem(this.table, write)),
          ],
        }),
      ),
    );
    return next;
  }

  /**
   * Removes the folder association of every workflow of a folder (the workflows stay), each with
   * its folder's counters, conditional on the workflow as read (read again when it changed).
   */
  async detachFromFolder(folderId: string, now: string): Promise<number> {
    const workflows = await this.listByFolder(folderId);
    for (const workflow of workflows) {
      await this.retried(workflow.id, workflow, async (current) => {
        // Moved to another folder meanwhile: it no longer belongs to this one.
        if (current.folderId !== folderId) return;
        const next: WorkflowRecord = { ...current, folderId: null, updatedAt: now };
        await this.table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.table.name,
                  Key: workflowKey(current.id),
                  UpdateExpression: 'SET folderId = :null, updatedAt = :now REMOVE GSI3PK, GSI3SK',
                  ConditionExpression: 'updatedAt = :read',
                  ExpressionAttributeValues: { ':null': null, ':now': now, ':read': current.updatedAt },
                },
              },
              ...directoryWrites(this.table, current, next),
            ],
          }),
        );
      });
    }
    return workflows.length;
  }

  /**
   * Deletes a workflow, its schedule item, its search entries and its share of the counters
   * together, so every reader loses it at once (conditional on it as read, read again when it
   * changed). Its history stays unreachable under its partition until it expires.
   *
   * @returns the workflow as deleted, or null when it was gone already
   */
  async delete(id: string, alsoWrite?: JoinedWritesOf<WorkflowRecord>): Promise<WorkflowRecord | null> {
    let deleted: WorkflowRecord | null = null;
    await this.retried(id, undefined, async (current) => {
      const ownerName = await this.ownerNameOf(current.lawyerEmail);
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table.name,
                Key: workflowKey(id),
                ConditionExpression: 'updatedAt = :read',
                ExpressionAttributeValues: { ':read': current.updatedAt },
              },
            },
            // Its place in the failing set and its health (with the paused list's entry) too: the
            // dashboard, the digest and the filters would list it until they expire.
            ...[scheduleKey(id), failingWorkflowKey(id), workflowHealthKey(id)].map((Key) => ({
              Delete: { TableName: this.table.name, Key },
            })),
            ...directoryWrites(this.table, current, null, { before: ownerName, after: [] }),
            ...(alsoWrite?.(current) ?? []).map((write) => joinedItem(this.table, write)),
          ],
        }),
      );
      deleted = current;
    });
    return deleted;
  }

  /**
   * Brings the search text and entries of every workflow of a lawyer to his name as it now is (his
   * profile created or renamed), one transaction each, conditional on the text read: an edit
   * meanwhile wrote them from his new name itself.
   */
  async reindexOwner(lawyerEmail: string): Promise<void> {
    const ownerName = await this.ownerNameOf(lawyerEmail);
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': workflowOwnerPartition(lawyerEmail) },
    });
    for (const item of items) {
      const record = toWorkflowRecord(item);
      const stored = typeof item.search === 'string' ? item.search : null;
      const after = searchable(record, ownerName);
      const text = searchText(after.texts);
      if (text === stored) continue;
      // The entries as written: the stored text's words are the ones they were made from.
      const before = stored === null ? null : { ...after, texts: [stored] };
      await applied(
        this.table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.table.name,
                  Key: workflowKey(record.id),
                  UpdateExpression: 'SET #search = :text',
                  ConditionExpression:
                    stored === null ? 'attribute_not_exists(#search)' : '#search = :stored',
                  ExpressionAttributeNames: { '#search': 'search' },
                  ExpressionAttributeValues: {
                    ':text': text,
                    ...(stored === null ? {} : { ':stored': stored }),
                  },
                },
              },
              ...searchEntryWrites(this.table, 'WORKFLOWS', before, after),
            ],
          }),
        ),
      );
    }
  }

  /** A lawyer's first and last name, from his counters item (none without a profile). */
  private async ownerNameOf(lawyerEmail: string): Promise<string[]> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: ownerCountersKey(lawyerEmail),
        ProjectionExpression: 'firstName, lastName',
      }),
    );
    return [Item?.firstName, Item?.lastName].filter((name): name is string => typeof name === 'string');
  }

  /**
   * Deletes every workflow of a lawyer, one transaction each as `delete` does (their histories left
   * to the TTL): stopped by a failure, a re-run finds the workflows left through the owner index.
   */
  async deleteByOwner(lawyerEmail: string): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': workflowOwnerPartition(lawyerEmail) },
      ProjectionExpression: '#id',
      ExpressionAttributeNames: { '#id': 'id' },
    });
    let deleted = 0;
    for (const item of items) {
      if (await this.delete(item.id as string)) deleted += 1;
    }
    return deleted;
  }

  /**
   * Runs a write made from the workflow as read (`read`, else read now), reading it again and
   * retrying while a condition finds it changed meanwhile; nothing when it is gone.
   */
  private async retried(
    id: string,
    read: WorkflowRecord | undefined,
    write: (current: WorkflowRecord) => Promise<void>,
  ): Promise<void> {
    let current = read ?? (await this.getById(id));
    for (let attempt = 1; current; attempt++) {
      try {
        await write(current);
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS || !(isConditionFailure(error) || isWriteConflict(error))) throw error;
        current = await this.getById(id);
      }
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
    return (await this.withSchedulesAndOwners(items, false)).items;
  }

  /**
   * The records of a page of workflow items, their schedule state (the last and next run a list
   * shows) joined, and, when asked, the names of their lawyers from their counters items: one
   * BatchGetItem of the page's schedule items and owners, projected to those fields.
   */
  private async withSchedulesAndOwners(
    items: readonly Record<string, unknown>[],
    owners: boolean,
  ): Promise<{ items: WorkflowRecord[]; owners: OwnerName[] }> {
    if (items.length === 0) return { items: [], owners: [] };
    const emails = owners ? [...new Set(items.map((item) => item.lawyerEmail as string))] : [];
    const found = await batchGetAll(
      this.table,
      [...items.map((item) => scheduleKey(item.id as string)), ...emails.map(ownerCountersKey)],
      { projection: LIST_SCHEDULE_PROJECTION },
    );
    const byPartition = new Map(found.map((item) => [item.PK, item]));
    return {
      items: items.map((item) => toWorkflowRecord(item, byPartition.get(item.PK))),
      owners: emails.flatMap((email) => {
        const owner = byPartition.get(ownerCountersKey(email).PK);
        return owner?.firstName
          ? [{ email, firstName: owner.firstName as string, lastName: owner.lastName as string }]
          : [];
      }),
    };
  }

  /** The names of the lawyers of these e-mails, from their counters items (one BatchGetItem). */
  async ownerNames(emails: readonly string[]): Promise<OwnerName[]> {
    const found = await batchGetAll(this.table, [...new Set(emails)].map(ownerCountersKey), {
      projection: 'PK, firstName, lastName',
    });
    return emails.flatMap((email) => {
      const owner = found.find((item) => item.PK === ownerCountersKey(email).PK);
      return owner?.firstName
        ? [{ email, firstName: owner.firstName as string, lastName: owner.lastName as string }]
        : [];
    });
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
