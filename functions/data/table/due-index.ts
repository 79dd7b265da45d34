import { dueAtOf, isScheduled, type SchedulableWorkflow } from '../../domain/scheduling/due-slots';
import { DUE_SHARDS } from '../../domain/scheduling/scheduling-settings';
import { shardOf } from './keys';

/**
 * The due index: sparse (only active, scheduled workflows), write-sharded by a hash of the id, sorted
 * by `<due time>#<id>`, so each shard's due runs are one range query and the scheduler reads nothing else. The
 * index (`DueSlots`) projects only what a claim reads.
 * A workflow's writes set its entry, the scheduler reads it: its formats are kept here, below both.
 */

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

/** The index attributes of a schedule item. */
export interface DueIndexKeys {
  readonly DuePK: string;
  readonly DueSK: string;
}

/**
 * The index attributes a schedule item must carry: both keys while the workflow is active and
 * scheduled, none otherwise (the repository then REMOVEs them, which takes the item out of the index).
 */
export function dueIndexKeys(workflow: SchedulableWorkflow): DueIndexKeys | null {
  if (!isScheduled(workflow)) return null;
  return {
    DuePK: duePartition(dueShardOf(workflow.id)),
    DueSK: dueSortKey(dueAtOf(workflow), workflow.id),
  };
}

/**
 * The condition an admin's edit of the schedule item's copies is written under: the next run as read,
 * so a claim made meanwhile fails the edit instead of being undone (a slot sent would be due again).
 */
export function scheduleUnchangedCondition(read: Pick<SchedulableWorkflow, 'cronNextRun'>): {
  readonly expression: string;
  readonly values: Record<string, unknown>;
} {
  if (read.cronNextRun) {
    return { expression: 'cronNextRun = :readNextRun', values: { ':readNextRun': read.cronNextRun } };
  }
  return {
    expression: '(attribute_not_exists(cronNextRun) OR attribute_type(cronNextRun, :nullType))',
    values: { ':nullType': 'NULL' },
  };
}
