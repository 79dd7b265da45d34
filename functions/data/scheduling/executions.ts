import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { RETENTION_DAYS } from '../../../shared/constants';
import type { Execution } from '../../../shared/schemas/scheduler';
import type { Page } from '../../domain/core/ports';
import type { Executions, NewExecution } from '../../domain/scheduling/ports';
import { workflowKey } from '../directory/keys';
import { queryPage, tablePageKey } from '../table/page-cursor';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { EXECUTION_PREFIX, executionSortKey, runEndKey } from './keys';

function toExecution(item: Record<string, unknown>): Execution {
  return {
    id: item.id as string,
    workflowId: item.workflowId as string,
    trigger: item.trigger as Execution['trigger'],
    startedAt: item.startedAt as string,
    durationMs: item.durationMs as number,
    httpStatus: (item.httpStatus as number | null) ?? null,
    outcome: item.outcome as Execution['outcome'],
    message: item.message as string,
    attempt: item.attempt as number,
    ...(item.retry ? { retry: item.retry as NonNullable<Execution['retry']> } : {}),
    // A dispatched run's id is its dispatch id; a manual run, a test or a replay records its own.
    ...(typeof (item.runId ?? item.dispatchId) === 'string'
      ? { runId: (item.runId ?? item.dispatchId) as string }
      : {}),
  };
}

/**
 * The execution history: one item per webhook call under its workflow's partition
 * (`WORKFLOW#<id>`, `EXECUTION#<started at>#<id>`; a dispatched run's end `EXECUTION#<due at>#<dispatch
 * id>`), so that the newest calls are one Query and
 * they outlive a deleted workflow only until they expire: after 30 days (TTL, spec §9
 * retention of technical data).
 */
export class ExecutionRepository implements Executions {
  constructor(private readonly table: Table) {}

  /**
   * Records a call as one history item. A dispatched run's end (no retry follows) is put at its run's
   * key (`runEndKey`), on condition that none is there: that item is also what a second delivery of
   * the run reads before calling, so the history entry and the exactly-once record are one write unit.
   * An attempt that is retried, a manual run, a test and a replay are put at their start. No
   * transaction: the last run and the health are the run end's own write
   * (`data/health/health-writes.ts`), and a call of a workflow deleted meanwhile leaves an item no
   * screen reaches, gone with its TTL. False when the run's end was recorded already (another
   * delivery of it ended first): the history keeps that one.
   */
  async record(execution: NewExecution): Promise<boolean> {
    const expiresAt =
      Math.floor(Date.parse(execution.startedAt) / 1000) + RETENTION_DAYS.technicalData * 86_400;
    if (execution.dispatchId && !execution.retry) {
      const key = runEndKey(execution.workflowId, execution.dispatchId);
      return applied(
        this.table.doc.send(
          new PutCommand({
            TableName: this.table.name,
            Item: { ...key, entity: 'Execution', id: execution.dispatchId, ...execution, expiresAt },
            ConditionExpression: 'attribute_not_exists(PK)',
          }),
        ),
      );
    }
    const id = randomUUID();
    const { PK } = workflowKey(execution.workflowId);
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          PK,
          SK: executionSortKey(execution.startedAt, id),
          entity: 'Execution',
          id,
          ...execution,
          expiresAt,
        },
      }),
    );
    return true;
  }

  /** One page of a workflow's calls, newest first; a cursor of another workflow's history is refused. */
  async listByWorkflow(workflowId: string, limit: number, cursor?: string): Promise<Page<Execution>> {
    const { PK } = workflowKey(workflowId);
    const page = await queryPage(
      this.table,
      {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': PK, ':prefix': EXECUTION_PREFIX },
        ScanIndexForward: false,
      },
      tablePageKey(PK, EXECUTION_PREFIX),
      limit,
      cursor,
    );
    return { items: page.items.map(toExecution), nextCursor: page.nextCursor };
  }
}
