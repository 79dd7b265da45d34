import type { FirmDataSource } from '../../domain/billing/data-export';
import type { ExportedCall, ExportedReport, FirmExportData } from '../../domain/billing/export-files';
import type { LawyerRecord } from '../../domain/directory/ports';
import { SubscriptionRepository } from '../billing/subscriptions';
import { toAuditRecord } from '../directory/audit';
import { FolderRepository } from '../directory/folders';
import { AUDIT_PREFIX, workflowKey } from '../directory/keys';
import { WorkflowRepository } from '../directory/workflows';
import { LicenseRepository } from '../identity/licenses';
import { COMPLETION_REPORT_PREFIX, toStoredReport } from '../scheduling/completion-reports';
import { EXECUTION_PREFIX } from '../scheduling/keys';
import { queryPages } from '../table/query-all';
import type { Table } from '../table/table';

/** How far back the audit trail is read: as long as it is kept (5 years). */
const AUDIT_YEARS = 5;

/** The months (`yyyy-mm`) from `from` to `to`, both included. */
export function monthsBetween(from: Date, to: Date): string[] {
  const months: string[] = [];
  const cursor = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
  while (cursor <= to) {
    months.push(cursor.toISOString().slice(0, 7));
    cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return months;
}

function toCall(item: Record<string, unknown>): ExportedCall {
  const runId = item.runId ?? item.dispatchId;
  return {
    workflowId: item.workflowId as string,
    runId: typeof runId === 'string' ? runId : null,
    id: item.id as string,
    startedAt: item.startedAt as string,
    trigger: item.trigger as string,
    outcome: item.outcome as string,
    httpStatus: (item.httpStatus as number | null | undefined) ?? null,
    durationMs: item.durationMs as number,
    attempt: item.attempt as number,
    retry: (item.retry as string | undefined) ?? null,
    message: item.message as string,
  };
}

/**
 * A firm's data for its export, by the table's access patterns: the profile and licence by key,
 * the workflows by owner (GSI2), their folders by key; then, page by page while the archive is
 * written, each workflow's 30 days of calls and its reports (Queries of its partition), and the
 * audit trail's months since the firm was created, keeping the entries about the firm or its
 * workflows. The trail has no index by firm: reading its months is the export's largest read for
 * a small firm, and stays in the background job.
 */
export class FirmExportSource implements FirmDataSource {
  constructor(private readonly table: Table) {}

  async data(lawyer: LawyerRecord, historySince: string, now: Date): Promise<FirmExportData> {
    const table = this.table;
    const [workflows, license] = await Promise.all([
      new WorkflowRepository(table).listByOwner(lawyer.email),
      lawyer.licenseKeyHash ? new LicenseRepository(table).getByHash(lawyer.licenseKeyHash) : null,
    ]);
    const folderIds = [...new Set(workflows.flatMap((workflow) => workflow.folderId ?? []))];
    const folderRepository = new FolderRepository(table);
    const [folders, billing] = await Promise.all([
      Promise.all(folderIds.map((id) => folderRepository.getById(id))),
      license ? new SubscriptionRepository(table).billingOfLicense(license.keyHash) : null,
    ]);
    const refs = new Set([`lawyer:${lawyer.id}`, ...workflows.map((workflow) => `workflow:${workflow.id}`)]);
    const firstMonth = new Date(
      Math.max(Date.parse(lawyer.createdAt), now.getTime() - AUDIT_YEARS * 366 * 86_400_000),
    );
    return {
      lawyer,
      workflows,
      folders: folders.flatMap((folder) => folder ?? []),
      subscription: {
        licenseType: license?.licenseType ?? null,
        isActive: license?.isActive ?? null,
        subscriptionStatus: license?.subscriptionStatus ?? null,
        nextPaymentDue: license?.nextPaymentDue ?? null,
        subscribedAt: billing?.createdAt ?? null,
        canceledAt: billing?.canceledAt ?? null,
        purgeAfter: billing?.purgeAfter ?? null,
      },
      history: async function* () {
        for (const workflow of workflows) {
          for await (const page of queryPages(table, {
            KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': workflowKey(workflow.id).PK,
              ':from': `${EXECUTION_PREFIX}${historySince}`,
              ':to': `${EXECUTION_PREFIX}~`,
            },
          })) {
            yield (page.Items ?? []).map(toCall);
          }
        }
      },
      reports: async function* () {
        for (const workflow of workflows) {
          for await (const page of queryPages(table, {
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
            ExpressionAttributeValues: {
              ':pk': workflowKey(workflow.id).PK,
              ':prefix': COMPLETION_REPORT_PREFIX,
            },
          })) {
            const reports: ExportedReport[] = (page.Items ?? []).map(toStoredReport);
            yield reports.filter((report) => report.runStartedAt >= historySince);
          }
        }
      },
      audit: async function* () {
        for (const month of monthsBetween(firstMonth, now)) {
          for await (const page of queryPages(table, {
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': `${AUDIT_PREFIX}${month}` },
          })) {
            yield (page.Items ?? []).map(toAuditRecord).filter((entry) => refs.has(entry.target));
          }
        }
      },
    };
  }
}
