import { BatchGetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

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
      const outcomes = (item?.outcomes ?? {}) as Record<
        string,
        Pick<SchedulerExecution, 'status' | 'message'>
      >;
      return {
        ...parsed.data,
        executions: parsed.data.executions.map((execution) => {
          const ended = outcomes[execution.workflowId];
          return ended ? { ...execution, status: ended.status, message: ended.message } : execution;
        }),
      };
    };
    return { schedule: find('schedule'), manual: find('manual') };
  }
}
