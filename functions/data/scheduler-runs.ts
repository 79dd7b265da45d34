import { BatchGetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import { MESSAGES } from '../../shared/messages';
import { type SchedulerExecution, SchedulerRun } from '../../shared/schemas/scheduler';
import { schedulerRunKey } from './keys';
import { isConditionFailure, type Table } from './table';

export type RunKind = 'schedule' | 'manual';

const kindOf = (trigger: SchedulerRun['trigger']): RunKind =>
  trigger === 'schedule' ? 'schedule' : 'manual';

/**
 * The last scheduler run of each kind (the minute schedule, an admin's), so that /admin/settings
 * shows the last result after a reload. One item each, overwritten by every run.
 */
export class SchedulerRunRepository {
  constructor(private readonly table: Table) {}

  async save(run: SchedulerRun): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...schedulerRunKey(kindOf(run.trigger)), entity: 'SchedulerRun', run, outcomes: {} },
      }),
    );
  }

  /**
   * The start of a minute tick that fans out: its result is empty until its claimers add their
   * shards (`addShard`); it shows what they added so far.
   */
  async startFanOut(at: string, shards: number): Promise<void> {
    const run: SchedulerRun = {
      trigger: 'schedule',
      success: true,
      timestamp: at,
      workflows_checked: 0,
      executions: [],
      message: MESSAGES.scheduler.summary(0, 0),
    };
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...schedulerRunKey('schedule'),
          entity: 'SchedulerRun',
          run,
          outcomes: {},
          counts: { shards, shardsDone: 0, checked: 0, queued: 0, failed: 0 },
        },
      }),
    );
  }

  /**
   * One claimer's shard of the tick started at `at`: its counts added, its listed executions
   * appended (a few per shard, so the item stays small at any size). Nothing when a later tick is
   * the last one now.
   */
  async addShard(
    at: string,
    result: {
      readonly checked: number;
      readonly queued: number;
      readonly failed: number;
      readonly executions: readonly SchedulerExecution[];
    },
  ): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: schedulerRunKey('schedule'),
          UpdateExpression:
            'SET #run.executions = list_append(#run.executions, :executions) ' +
            'ADD #counts.shardsDone :one, #counts.checked :checked, #counts.queued :queued, #counts.failed :failed',
          ConditionExpression: '#run.#timestamp = :at AND attribute_exists(#counts)',
          ExpressionAttributeNames: { '#run': 'run', '#timestamp': 'timestamp', '#counts': 'counts' },
          ExpressionAttributeValues: {
            ':executions': result.executions,
            ':one': 1,
            ':checked': result.checked,
            ':queued': result.queued,
            ':failed': result.failed,
            ':at': at,
          },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * The end of one run a scheduler run queued (its call succeeded or failed for good): kept beside
   * that run's result while it is still the last of its kind, and shown in its place.
   */
  async recordOutcome(
    kind: RunKind,
    runAt: string,
    workflowId: string,
    outcome: { readonly status: 'success' | 'failed'; readonly message: string },
  ): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: schedulerRunKey(kind),
          UpdateExpression: 'SET outcomes.#workflow = :outcome',
          ConditionExpression: '#run.#timestamp = :runAt',
          ExpressionAttributeNames: { '#workflow': workflowId, '#run': 'run', '#timestamp': 'timestamp' },
          ExpressionAttributeValues: { ':outcome': outcome, ':runAt': runAt },
        }),
      );
    } catch (error) {
      // A later run is the last one now: this outcome stays in the workflow's history only.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async lastRuns(): Promise<{ schedule: SchedulerRun | null; manual: SchedulerRun | null }> {
    const { Responses } = await this.table.doc.send(
      new BatchGetCommand({
        RequestItems: {
          [this.table.name]: {
            Keys: [schedulerRunKey('schedule'), schedulerRunKey('manual')],
            ConsistentRead: true,
          },
        },
      }),
    );
    const items = Responses?.[this.table.name] ?? [];
    const find = (kind: RunKind) => {
      const item = items.find((candidate) => candidate.SK === schedulerRunKey(kind).SK);
      const parsed = SchedulerRun.safeParse(item?.run);
      if (!parsed.success) return null;
      const counts = item?.counts as
        | { checked: number; queued: number; failed: number; shards: number; shardsDone: number }
        | undefined;
      // A tick that fanned out: its counts are the sum of the shards its claimers reported.
      const run: SchedulerRun = counts
        ? {
            ...parsed.data,
            success: counts.failed === 0,
            workflows_checked: counts.checked,
            message: MESSAGES.scheduler.summary(counts.queued, counts.checked),
            ...(counts.failed > 0 ? { error: MESSAGES.scheduler.someQueueFailures(counts.failed) } : {}),
          }
        : parsed.data;
      const outcomes = (item?.outcomes ?? {}) as Record<
        string,
        Pick<SchedulerExecution, 'status' | 'message'>
      >;
      return {
        ...run,
        executions: run.executions.map((execution) => {
          const ended = outcomes[execution.workflowId];
          return ended ? { ...execution, status: ended.status, message: ended.message } : execution;
        }),
      };
    };
    return { schedule: find('schedule'), manual: find('manual') };
  }
}
