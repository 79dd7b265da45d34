import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DueWorkflow, WorkflowRuns } from '../../domain/scheduling/ports';
import { scheduleKey } from '../directory/keys';
import { toScheduleRecord } from '../directory/workflows';
import { dueAtOfSortKey, dueBound, duePartition, dueSortKey } from '../table/due-index';
import { queryAll } from '../table/query-all';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';

/** A due workflow from a schedule item read from the due index (or the table). */
function dueWorkflowOf(item: Record<string, unknown>): DueWorkflow {
  const { cronLastRun: _notProjected, ...workflow } = toScheduleRecord(item);
  return {
    workflow,
    dueAt: dueAtOfSortKey(item.DueSK as string),
    claimedAt: typeof item.claimedAt === 'string' ? item.claimedAt : null,
  };
}

/**
 * The writes that decide when a workflow runs, each conditional so that concurrent runs cannot
 * both win: reading the due index, claiming the runs due, giving them back, the forced runs' claims
 * and the manual-run lock. Each writes the workflow's schedule item alone (keys.ts `scheduleKey`):
 * 1 write unit, and 2 for its due-index entry when the due slot moves; never the workflow item and
 * its list-index copies.
 */
export class WorkflowRunRepository implements WorkflowRuns {
  constructor(private readonly table: Table) {}

  /** The indexed workflows of one due-index shard due at or before `bound` (all with no bound). */
  async dueInShard(shard: number, bound: Date | null): Promise<DueWorkflow[]> {
    const items = await queryAll(this.table, {
      IndexName: 'DueSlots',
      KeyConditionExpression: bound ? 'DuePK = :pk AND DueSK <= :bound' : 'DuePK = :pk',
      ExpressionAttributeValues: bound
        ? { ':pk': duePartition(shard), ':bound': dueBound(bound) }
        : { ':pk': duePartition(shard) },
    });
    return (
      items
        // A workflow item of the shape before schedule items still carries the due keys until
        // `npm run migrate` moves them to its schedule item (run right after the deploy): its runs
        // wait for it rather than being sent without a schedule item to claim.
        .filter((item) => item.SK === scheduleKey(item.id as string).SK)
        .map(dueWorkflowOf)
    );
  }

  async dueOf(workflowId: string): Promise<DueWorkflow | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: scheduleKey(workflowId), ConsistentRead: true }),
    );
    return Item && typeof Item.DueSK === 'string' ? dueWorkflowOf(Item) : null;
  }

  async claim(read: DueWorkflow, nextRun: string, now: Date): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(read.workflow.id),
          // Every claim stamps its time, so that a forced run can tell a workflow claimed within its
          // window (by a tick, or by another forced run that read it after this claim) and skip it.
          UpdateExpression: 'SET DueSK = :next, cronNextRun = :nextRun, claimedAt = :now',
          ConditionExpression: 'DueSK = :read AND active = :true AND cronEnabled = :true',
          ExpressionAttributeValues: {
            ':next': dueSortKey(nextRun, read.workflow.id),
            ':nextRun': nextRun,
            ':now': now.toISOString(),
            ':read': dueSortKey(read.dueAt, read.workflow.id),
            ':true': true,
          },
        }),
      ),
    );
  }

  async release(read: DueWorkflow, nextRun: string): Promise<boolean> {
    const { workflow } = read;
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(workflow.id),
          UpdateExpression: 'SET DueSK = :read, cronNextRun = :previousNext',
          ConditionExpression: 'DueSK = :claimed',
          ExpressionAttributeValues: {
            ':read': dueSortKey(read.dueAt, workflow.id),
            ':previousNext': workflow.cronNextRun,
            ':claimed': dueSortKey(nextRun, workflow.id),
          },
        }),
      ),
    );
  }

  async claimForced(read: DueWorkflow, now: Date, windowStart: Date): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(read.workflow.id),
          UpdateExpression: 'SET claimedAt = :now, cronLastRun = :null',
          ConditionExpression:
            'DueSK = :read AND active = :true AND cronEnabled = :true AND (attribute_not_exists(claimedAt) OR claimedAt <= :windowStart)',
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':null': null,
            ':read': dueSortKey(read.dueAt, read.workflow.id),
            ':true': true,
            ':windowStart': windowStart.toISOString(),
          },
        }),
      ),
    );
  }

  async releaseForced(read: DueWorkflow, now: Date): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: scheduleKey(read.workflow.id),
          ...(read.claimedAt === null
            ? { UpdateExpression: 'REMOVE claimedAt' }
            : {
                UpdateExpression: 'SET claimedAt = :previous',
              }),
          ConditionExpression: 'claimedAt = :claimed',
          ExpressionAttributeValues: {
            ':claimed': now.toISOString(),
            ...(read.claimedAt === null ? {} : { ':previous': read.claimedAt }),
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
