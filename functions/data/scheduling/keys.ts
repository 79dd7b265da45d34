import { DUE_SHARDS } from '../../domain/scheduling/scheduling-settings';
import { workflowKey } from '../directory/keys';
import { shardOf } from '../table/keys';

/*
 * Key formats of the schedule, the due index, the dispatches, executions and scheduler runs.
 * Changing one changes where existing items are looked for: it needs a migration.
 */

/**
 * The schedule state of a workflow (next run, last run, claim, manual-run lock, due-index keys and
 * the few workflow fields the claimer sends a run with), beside it. It carries no list-index key,
 * so a claim or a recorded run writes this small item and its due-index entry alone.
 */
export const scheduleKey = (id: string) => ({ PK: `WORKFLOW#${id}`, SK: 'SCHEDULE' });

/** The due index partition of a workflow id: stable across processes, deploys and runtimes. */
export function dueShardOf(workflowId: string): number {
  return shardOf(workflowId, DUE_SHARDS);
}

/** The `DuePK` value of a shard. */
export const duePartition = (shard: number) => `DUE#${shard}`;

/** Every `DuePK` value of the index, for the readers that visit all shards. */
export const allDuePartitions = () => Array.from({ length: DUE_SHARDS }, (_, shard) => duePartition(shard));

/** `DueSK`: `<due time ISO>#<workflow id>`, so that a range query returns the due ones, oldest first. */
export const dueSortKey = (dueAt: string, workflowId: string) => `${dueAt}#${workflowId}`;

/** The due time a `DueSK` value holds. */
export const dueAtOfSortKey = (sortKey: string) => sortKey.slice(0, sortKey.indexOf('#'));

/**
 * The upper bound of a range query for everything due at or before `bound`, whatever the id
 * (`~` sorts after `#` and after every character of an id).
 */
export const dueBound = (bound: Date) => `${bound.toISOString()}~`;

/** The call slots of one firm (the workflow's owner e-mail): one item, an attribute per slot. */
export const firmSlotsKey = (lawyerEmail: string) => ({ PK: `FIRM_SLOTS#${lawyerEmail}`, SK: 'SLOTS' });

/** A dispatched run that reached its end (delivered, or refused for good): never called again. */
export const dispatchDoneKey = (workflowId: string, dispatchId: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `DISPATCH#${dispatchId}`,
});
/** The executions of a workflow live in its partition, newest last. */
export const EXECUTION_PREFIX = 'EXECUTION#';
export const executionSortKey = (startedAt: string, id: string) => `${EXECUTION_PREFIX}${startedAt}#${id}`;

/** The last result of each kind of scheduler run. */
export const schedulerRunKey = (kind: 'schedule' | 'manual') => ({
  PK: 'SCHEDULER',
  SK: `LAST_RESULT#${kind}`,
});
/**
 * The runs one due-index shard listed in the last result of a run of that kind, and their ends:
 * one item per shard, each in its own partition, so that a run's reports spread over small items.
 */
export const schedulerRunShardKey = (kind: 'schedule' | 'manual', shard: number) => ({
  PK: `SCHEDULER#LAST_RESULT#${kind}#${String(shard).padStart(2, '0')}`,
  SK: 'SHARD',
});
