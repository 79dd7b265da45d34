import { shardOf } from '../table/keys';

/*
 * Key formats of lawyers, folders, workflows and the audit trail. Changing one changes where
 * existing items are looked for: it needs a migration.
 */

export const lawyerKey = (id: string) => ({ PK: `LAWYER#${id}`, SK: 'PROFILE' });
/** Uniqueness claims: one item per e-mail (and per licence key: `data/identity/keys.ts`), naming its lawyer. */
export const lawyerEmailClaimKey = (email: string) => ({ PK: `UNIQUE#LAWYER_EMAIL#${email}`, SK: 'UNIQUE' });
/*
 * The admin lists (lawyers, folders, automations, audit trail) are one GSI1 partition each: only an
 * admin's hand (and the automatic pause, a few thousand a minute at worst) writes them, far below
 * what one partition takes, and one partition is one Query a page.
 */

/** The lawyers list (GSI1). */
export const LAWYERS_PARTITION = 'LAWYERS';

export const folderKey = (id: string) => ({ PK: `FOLDER#${id}`, SK: 'FOLDER' });
/** The folders list (GSI1). */
export const FOLDERS_PARTITION = 'FOLDERS';

export const workflowKey = (id: string) => ({ PK: `WORKFLOW#${id}`, SK: 'WORKFLOW' });
/**
 * The all-workflows list (GSI1): an admin's creation, edit or switch and the automatic pause write
 * a workflow item; the scheduler writes its schedule item, which is in no list.
 */
export const WORKFLOWS_PARTITION = 'WORKFLOWS';
/** GSI2: the workflows of one lawyer. */
export const workflowOwnerPartition = (email: string) => `OWNER#${email}`;
/** GSI3 (sparse): the workflows of one folder. */
export const workflowFolderPartition = (folderId: string) => `FOLDER#${folderId}`;

/** Audit entries, partitioned by month. */
export const AUDIT_PREFIX = 'AUDIT#';
export const auditEntryKey = (entry: { readonly at: string; readonly id: string }) => ({
  PK: `${AUDIT_PREFIX}${entry.at.slice(0, 7)}`,
  SK: `${entry.at}#${entry.id}`,
});
/** The trail in GSI1 (the table's own `AUDIT#<yyyy-mm>` keys are a different attribute). */
export const AUDIT_INDEX_PARTITION = 'AUDIT';

/* Items other areas keep in a workflow's partition: written beside it, removed with it. */

/**
 * The schedule state of a workflow (next run, last run, claim, manual-run lock, due-index keys and
 * the few workflow fields the claimer sends a run with), beside it. It carries no list-index key,
 * so a claim or a recorded run writes this small item and its due-index entry alone.
 */
export const scheduleKey = (id: string) => ({ PK: `WORKFLOW#${id}`, SK: 'SCHEDULE' });
/**
 * The health of a workflow (last success, last failure, pause), in its partition: deleted with it.
 * While the automatic pause holds, it is also the workflow's entry in the paused list
 * (`data/health/keys.ts`).
 */
export const workflowHealthKey = (workflowId: string) => ({ PK: workflowKey(workflowId).PK, SK: 'HEALTH' });
/** Health's marker of a failing automation (`data/health/keys.ts` indexes the failing set). */
export const failingWorkflowKey = (workflowId: string) => ({ PK: workflowKey(workflowId).PK, SK: 'FAILING' });

/**
 * The failing set: one item per automation whose last run failed, in the workflow's own partition,
 * so that a mass outage's failures spread over as many partitions as workflows. Read through GSI1,
 * longest streak first, over `FAILING_SHARDS` partitions.
 */
export const FAILING_SHARDS = 16;
const FAILING_PREFIX = 'HEALTH#FAILING';
/** The failing set's list, as a cursor holds its place: streak, last failure, workflow id. */
export const FAILING_LIST_NAME = FAILING_PREFIX;
export const FAILING_SORT_KEY = /^\d{10}#(\d{4}-\d{2}-\d{2}T[\d:.]+Z)?#[\w-]{1,100}$/;
/** Every GSI1 partition of the failing set. */
export const failingPartitions = () =>
  Array.from({ length: FAILING_SHARDS }, (_, shard) => `${FAILING_PREFIX}#${shard}`);
/**
 * A failing workflow's GSI1 keys: its shard, and its streak (zero-padded, so that the index orders
 * it as a number) then its last failure, so that a read from the end gives the longest streaks,
 * the latest failures first among equal ones.
 */
export const failingIndexKeys = (
  workflowId: string,
  consecutiveFailures: number,
  lastFailureAt: string | null,
) => ({
  GSI1PK: `${FAILING_PREFIX}#${shardOf(workflowId, FAILING_SHARDS)}`,
  GSI1SK: `${String(consecutiveFailures).padStart(10, '0')}#${lastFailureAt ?? ''}#${workflowId}`,
});

/**
 * The paused list (GSI1, sparse): a workflow's health item carries these keys from the automatic
 * pause until the pause ends ('Reprendre', a success while scheduled) or the workflow is deleted,
 * the latest pause first. One partition, as the all-workflows list the pause writes anyway.
 */
export const PAUSED_PARTITION = 'PAUSED';
export const pausedIndexKeys = (workflowId: string, pausedAt: string) => ({
  GSI1PK: PAUSED_PARTITION,
  GSI1SK: `${pausedAt}#${workflowId}`,
});

/**
 * The keys of the directory's counters and search index (docs/data-model.md). Changing one moves
 * where existing items are looked for: it needs a migration.
 */

/**
 * Everyone's workflow counters are kept in this many items, a workflow counted in the one of its
 * id: the automatic pause changes a counter with every automation it stops, thousands a minute in
 * an outage, more than one item takes; the counts read all of them in one BatchGetItem.
 */
export const WORKFLOW_COUNTER_SHARDS = 16;

/** The shard of everyone's counters a workflow is counted in. */
export const workflowCountersKey = (workflowId: string) => ({
  PK: `COUNTS#WORKFLOWS#${shardOf(workflowId, WORKFLOW_COUNTER_SHARDS)}`,
  SK: 'COUNTS',
});

/** Every shard of everyone's workflow counters. */
export const allWorkflowCountersKeys = () =>
  Array.from({ length: WORKFLOW_COUNTER_SHARDS }, (_, shard) => ({
    PK: `COUNTS#WORKFLOWS#${shard}`,
    SK: 'COUNTS',
  }));

/** The counters of the workflows of one owner e-mail (a lawyer's, whether he has a profile or not). */
export const ownerCountersKey = (email: string) => ({ PK: `COUNTS#OWNER#${email}`, SK: 'COUNTS' });

/** How many lawyers there are: written with each creation and deletion, by an admin's hand. */
export const LAWYER_COUNTER_KEY = { PK: 'COUNTS#LAWYERS', SK: 'COUNTS' } as const;

/** How many folders there are. */
export const FOLDER_COUNTER_KEY = { PK: 'COUNTS#FOLDERS', SK: 'COUNTS' } as const;

/** The attribute of a counter on its item (the folder's own counters are on the folder item). */
export const counterAttribute = (field: string) => `count_${field}`;

/** The lists the search index covers, each with its own entries. */
export type SearchedList = 'WORKFLOWS' | 'LAWYERS' | 'FOLDERS';

/** The index entry of an item under one word beginning, in the item's own partition. */
export const SEARCH_ENTRY_PREFIX = 'SEARCH#';
export const searchEntryKey = (itemPartition: string, key: string) => ({
  PK: itemPartition,
  SK: `${SEARCH_ENTRY_PREFIX}${key}`,
});

/** GSI1: the items of a list having a word that begins with `key`, newest first. */
export const searchPartition = (list: SearchedList, key: string) => `SEARCH#${list}#${key}`;
