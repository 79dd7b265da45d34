import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import { RETENTION_DAYS } from '../../../shared/constants';
import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import type {
  CompletionReportStore,
  ReportOutcome,
  StoredReport,
} from '../../domain/scheduling/completion-reports';
import { batchGetAll } from '../table/batch-get';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { completionReportKey, processingStreakKey, REPORT_PREFIX } from './keys';

export function toStoredReport(item: Record<string, unknown>): StoredReport {
  return {
    workflowId: item.workflowId as string,
    runId: item.runId as string,
    trigger: item.trigger as ExecutionTrigger,
    runStartedAt: item.runStartedAt as string,
    status: item.status as StoredReport['status'],
    summary: item.summary as string,
    items: typeof item.items === 'number' ? item.items : null,
    error: typeof item.error === 'string' ? item.error : null,
    reportedAt: item.reportedAt as string,
  };
}

/** The sort-key prefix of a workflow's reports, for the export's Query of them. */
export const COMPLETION_REPORT_PREFIX = REPORT_PREFIX;

/**
 * What one run's report said, read consistently: alone, so that 'Tester la connexion' (which waits
 * for its test's report) carries no more of the reports' storage.
 */
export async function readReportOutcome(
  table: Table,
  workflowId: string,
  runId: string,
): Promise<ReportOutcome | null> {
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.name,
      Key: completionReportKey(workflowId, runId),
      ConsistentRead: true,
    }),
  );
  if (!Item) return null;
  return {
    status: Item.status as ReportOutcome['status'],
    summary: Item.summary as string,
    error: typeof Item.error === 'string' ? Item.error : null,
  };
}

/**
 * Completion reports: one item per run in its workflow's partition (`REPORT#<run id>`), written
 * once (conditional put), kept as long as the history (30 days from the run, TTL); and each
 * workflow's reported failures in a row, one small counter item beside it.
 */
export class CompletionReportRepository implements CompletionReportStore {
  constructor(private readonly table: Table) {}

  async recordOnce(report: StoredReport): Promise<boolean> {
    const expiresAt =
      Math.floor(Date.parse(report.runStartedAt) / 1000) + RETENTION_DAYS.technicalData * 86_400;
    return applied(
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...completionReportKey(report.workflowId, report.runId),
            entity: 'CompletionReport',
            ...report,
            expiresAt,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  }

  async reportsOf(workflowId: string, runIds: readonly string[]): Promise<Map<string, StoredReport>> {
    const items = await batchGetAll(
      this.table,
      runIds.map((runId) => completionReportKey(workflowId, runId)),
    );
    return new Map(items.map((item) => [item.runId as string, toStoredReport(item)]));
  }

  async reportOf(workflowId: string, runId: string): Promise<StoredReport | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: completionReportKey(workflowId, runId),
        ConsistentRead: true,
      }),
    );
    return Item ? toStoredReport(Item) : null;
  }

  async countProcessingStreak(workflowId: string, failed: boolean): Promise<number> {
    const { Attributes } = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: processingStreakKey(workflowId),
        UpdateExpression: failed
          ? 'SET entity = :entity ADD streak :one'
          : 'SET entity = :entity, streak = :zero',
        ExpressionAttributeValues: failed
          ? { ':entity': 'ProcessingStreak', ':one': 1 }
          : { ':entity': 'ProcessingStreak', ':zero': 0 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return (Attributes?.streak as number | undefined) ?? 0;
  }
}
