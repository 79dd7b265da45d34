import { dueAtOf, isScheduled, type SchedulableWorkflow } from '../../domain/scheduling/due-slots';
import { duePartition, dueShardOf, dueSortKey } from './keys';

/**
 * The due index (GSI `DueIndex`): the scheduler reads only workflows that are due, never the
 * whole table.
 *
 * - Sparse: a workflow's schedule item (`scheduleKey`) carries `DuePK`/`DueSK` only while the
 *   workflow is active and scheduled, so the index holds nothing else.
 * - Write-sharded: `DuePK` is `DUE#<shard>` with the shard a stable hash of the workflow id, so
 *   no single index partition takes every write of the minute.
 * - `DueSK` is `<due time ISO>#<workflow id>`: one range query per shard (`DueSK <= bound`)
 *   returns exactly the workflows due before the bound, oldest first.
 */

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
 * The condition under which an admin's edit of the schedule item's copies (name, owner, type,
 * interval, scheduling), which recomputes its due key, keeps the scheduler's state as it was read:
 * the next run the scheduler claims moves with every claim, so a claim between the read and the
 * write fails the write instead of being undone by it (which would make a slot already dispatched
 * due again). An edit of the workflow item alone does not write the schedule item: it needs none.
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
