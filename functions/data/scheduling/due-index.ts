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
