import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import type { ExportRecord, ExportRecords } from '../../domain/billing/data-export';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { dataExportKey, firmExportKey } from './keys';

/** An export's record is kept two days (its file one, its link an hour). */
const RECORD_TTL_SECONDS = 2 * 86_400;

function toRecord(item: Record<string, unknown>): ExportRecord {
  return {
    id: item.id as string,
    lawyerId: item.lawyerId as string,
    requestedBy: item.requestedBy as string,
    status: item.status as ExportRecord['status'],
    requestedAt: item.requestedAt as string,
    readyAt: (item.readyAt as string | null | undefined) ?? null,
    sizeBytes: (item.sizeBytes as number | null | undefined) ?? null,
    objectKey: item.objectKey as string,
    fileName: item.fileName as string,
  };
}

/**
 * Exports and each firm's turn: one item per export (`DATA_EXPORT#<id>`) and one per firm
 * (`FIRM_EXPORT#<lawyer id>`) naming its latest export and, while one is built, a lease; taking the
 * turn is a conditional write, so two requests at once cannot both start.
 */
export class DataExportRepository implements ExportRecords {
  constructor(private readonly table: Table) {}

  async claim(lawyerId: string, exportId: string, now: Date, leaseMs: number): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...firmExportKey(lawyerId),
            entity: 'FirmExportTurn',
            exportId,
            building: true,
            leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
          },
          ConditionExpression: 'attribute_not_exists(PK) OR building = :no OR leaseUntil < :now',
          ExpressionAttributeValues: { ':no': false, ':now': now.toISOString() },
        }),
      ),
    );
  }

  async release(lawyerId: string, exportId: string): Promise<void> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: firmExportKey(lawyerId),
          UpdateExpression: 'SET building = :no',
          ConditionExpression: 'exportId = :id',
          ExpressionAttributeValues: { ':no': false, ':id': exportId },
        }),
      ),
    );
  }

  async put(record: ExportRecord): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...dataExportKey(record.id),
          entity: 'DataExport',
          ...record,
          expiresAt: Math.floor(Date.parse(record.requestedAt) / 1000) + RECORD_TTL_SECONDS,
        },
      }),
    );
  }

  async get(exportId: string): Promise<ExportRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: dataExportKey(exportId), ConsistentRead: true }),
    );
    return Item ? toRecord(Item) : null;
  }

  async latestOf(lawyerId: string): Promise<ExportRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: firmExportKey(lawyerId), ConsistentRead: true }),
    );
    return typeof Item?.exportId === 'string' ? this.get(Item.exportId) : null;
  }

  async finish(
    exportId: string,
    changes: Pick<ExportRecord, 'status' | 'readyAt' | 'sizeBytes'>,
  ): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: dataExportKey(exportId),
        UpdateExpression: 'SET #status = :status, readyAt = :readyAt, sizeBytes = :size',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': changes.status,
          ':readyAt': changes.readyAt,
          ':size': changes.sizeBytes,
        },
      }),
    );
  }
}
