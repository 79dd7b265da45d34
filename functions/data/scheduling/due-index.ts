import { dueAtOf, isScheduled, type SchedulableWorkflow } from '../../domain/scheduling/due-slots';
import { duePartition, dueShardOf, dueSortKey } from './keys';

/**
 * The due index: sparse (only active, scheduled workflows), write-sharded by a hash of the id, sorted
 * by `<due time>#<id>`, so each shard's due runs are one range query and the scheduler reads nothing else.
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
