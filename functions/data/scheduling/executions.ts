import { randomUUID } from 'node:crypto';
import { RETENTION_DAYS } from '../../../shared/constants';
import type { Execution } from '../../../shared/schemas/scheduler';
import type { Page } from '../../domain/core/ports';
import type { Executions, NewExecution } from '../../domain/scheduling/ports';
import { workflowKey } from '../directory/keys';
import { putItems } from '../table/batch-write';
import { queryPage, tablePageKey } from '../table/page-cursor';
import type { Table } from '../table/table';
import { dispatchDoneKey, EXECUTION_PREFIX, executionSortKey } from './keys';

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
 * (`WORKFLOW#<id>`, `EXECUTION#<started at>#<id>`), so that the newest calls are one Query and
 * they outlive a deleted workflow only until they expire: after 30 days (TTL, spec §9
 * retention of technical data).
 */
export class ExecutionRepository implements Executions {
  constructor(private readonly table: Table) {}

  /**
   * Records a call: its history item and, for a scheduled run that reached its end (no retry
   * follows), the run's done marker, so that a duplicate SQS delivery of it is not called again.
   * One BatchWriteItem of independent puts, not a transaction (which bills each item twice): the
   * last run and the health are the run end's own write (`data/health/health-writes.ts`), and a
   * call of a workflow deleted meanwhile leaves items no screen reaches, gone with their TTL.
   */
  async record(execution: NewExecution): Promise<void> {
    const id = randomUUID();
    const expiresAt =
      Math.floor(Date.parse(execution.startedAt) / 1000) + RETENTION_DAYS.technicalData * 86_400;
    const { PK } = workflowKey(execution.workflowId);
    const done =
      execution.dispatchId && !execution.retry
        ? [
            {
              ...dispatchDoneKey(execution.workflowId, execution.dispatchId),
              entity: 'DispatchDone',
              expiresAt,
            },
          ]
        : [];
    await putItems(this.table, [
      { PK, SK: executionSortKey(execution.startedAt, id), entity: 'Execution', id, ...execution, expiresAt },
      ...done,
    ]);
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
