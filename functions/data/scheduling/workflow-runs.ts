import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClaimToRelease, DueWorkflow, WorkflowRuns } from '../../domain/scheduling/ports';
import { scheduleKey } from '../directory/keys';
import { toScheduleRecord } from '../directory/workflows';
import { dueAtOfSortKey, dueBound, duePartition, dueSortKey } from '../table/due-index';
import { queryAll } from '../table/query-all';
import { applied, type Table } from '../table/table';

/**
 * The writes that decide when a workflow runs, each conditional so that concurrent runs cannot
 * both win: reading the due index, claiming a due slot, giving it back, and the manual-run lock.
 * Each writes the workflow's schedule item alone (keys.ts `scheduleKey`): 1 write unit and its
 * due-index entry, never the workflow item and its list-index copies.
 */
export class WorkflowRunRepository implements WorkflowRuns {
  constructor(private readonly table: Table) {}

  /** The indexed workflows of one due-index shard due at or before `bound` (all with no bound). */
  async dueInShard(shard: number, bound: Date | null): Promise<DueWorkflow[]> {
    return this.dueIn(duePartition(shard), bound);
  }

  private async dueIn(partition: string, bound: Date | null): Promise<DueWorkflow[]> {
    const items = await queryAll(this.table, {
      IndexName: 'DueSlots',
      KeyConditionExpression: bound ? 'DuePK = :pk AND DueSK <= :bound' : 'DuePK = :pk',
      ExpressionAttributeValues: bound
        ? { ':pk': partition, ':bound': dueBound(bound) }
        : { ':pk': partition },
    });
    return (
      items
        // A workflow item of the shape before schedule items still carries the due keys until
        // `npm run migrate` moves them to its schedule item (run right after the deploy): its runs
        // wait for it rather than being sent without a schedule item to claim.
        .filter((item) => item.SK === scheduleKey(item.id as string).SK)
        .map((item) => ({
          workflow: toScheduleRecord(item),
          dueAt: dueAtOfSortKey(item.DueSK as string),
          claimedAt: typeof item.claimedAt === 'string' ? item.claimedAt : null,
        }))
    );
  }

  /**
   * Moves a workflow's due slot from the one read to the next, on condition that the index key is
   * still the one read and the workflow still active and scheduled. Forced, its last run is
   * cleared in the same write. False when another run claimed it first or it changed meanwhile.
   */
  async claim(
    read: DueWorkflow,
    nextRun: string,
    /** When it is claimed: stamped, so that a forced run can tell a recent claim. */
    now: Date,
    /** A forced run: it clears the last run, and skips a workflow claimed since `windowStart`. */
    forced: { readonly windowStart: Date } | null,
  ): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(read.workflow.id),
          // Every claim stamps its time, so that a forced run can tell a workflow claimed within its
          // window (by a tick, or by another forced run that read it after this claim) and skip it.
          UpdateExpression: `SET DueSK = :next, cronNextRun = :nextRun, claimedAt = :now${forced ? ', cronLastRun = :null' : ''}`,
          ConditionExpression: `DueSK = :read AND active = :true AND cronEnabled = :true${
            forced ? ' AND (attribute_not_exists(claimedAt) OR claimedAt <= :windowStart)' : ''
          }`,
          ExpressionAttributeValues: {
            ':next': dueSortKey(nextRun, read.workflow.id),
            ':nextRun': nextRun,
            ':now': now.toISOString(),
            ':read': dueSortKey(read.dueAt, read.workflow.id),
            ':true': true,
            ...(forced ? { ':null': null, ':windowStart': forced.windowStart.toISOString() } : {}),
          },
        }),
      ),
    );
  }

  /**
   * Gives a claimed slot back (its send failed), unless the workflow changed since the claim.
   * False when it changed meanwhile: its new state stands.
   */
  async release(claim: ClaimToRelease, forced: boolean): Promise<boolean> {
    const { workflow } = claim;
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(workflow.id),
          UpdateExpression: `SET DueSK = :read, cronNextRun = :previousNext${forced ? ', cronLastRun = :previousLast' : ''}`,
          ConditionExpression: 'DueSK = :claimed',
          ExpressionAttributeValues: {
            ':read': dueSortKey(claim.dueAt, workflow.id),
            ':previousNext': workflow.cronNextRun,
            ':claimed': dueSortKey(claim.nextRun, workflow.id),
            ...(forced ? { ':previousLast': workflow.cronLastRun } : {}),
          },
        }),
      ),
    );
  }

  /**
   * Takes the manual-run lock of an existing workflow if it is free: none taken, or taken at or
   * before `unlockedBefore`. False when it is held.
   */
  async lockManualRun(workflowId: string, now: Date, unlockedBefore: Date): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(workflowId),
          UpdateExpression: 'SET manualRunAt = :now',
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(manualRunAt) OR manualRunAt <= :unlocked)',
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':unlocked': unlockedBefore.toISOString(),
          },
        }),
      ),
    );
  }
}
