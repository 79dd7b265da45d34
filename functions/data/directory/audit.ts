import { PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { RETENTION_DAYS } from '../../../shared/constants';
import type { AuditLog, AuditRecord } from '../../domain/directory/ports';
import { pageShardedList, type ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import { AUDIT_INDEX_PARTITION, auditEntryKey } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Every entry in GSI1, newest first across months: one partition, one Query a page. */
export const AUDIT_LIST: ShardedList = {
  name: AUDIT_INDEX_PARTITION,
  index: 'GSI1',
  partitions: [AUDIT_INDEX_PARTITION],
};

/** Audit entries are kept as long as contractual records (spec §9: 5 years), then TTL removes them. */
const RETENTION_SECONDS = Math.round(RETENTION_DAYS.billingYears * 365.25 * 24 * 60 * 60);

/** An audit item as a record (also for the export, which reads the trail's months). */
export function toAuditRecord(item: Record<string, unknown>): AuditRecord {
  return {
    id: item.id as string,
    at: item.at as string,
    actorEmail: item.actorEmail as string,
    action: item.action as string,
    target: item.target as string,
    targetLabel: typeof item.targetLabel === 'string' ? item.targetLabel : null,
  };
}

/**
 * The admin audit trail. Entries are partitioned by month in the table and listed, newest first,
 * from the trail's GSI1 partition (functions/data/table/sharded-list.ts).
 */
export class AuditRepository implements AuditLog {
  constructor(private readonly table: Table) {}

  /** Records an entry on its own. */
  async record(record: AuditRecord): Promise<void> {
    await this.table.doc.send(new PutCommand(auditPutInput(this.table, record)));
  }

  /** One page of entries, newest first, and the cursor of the next page (null on the last). */
  async page(limit: number, cursor?: string): Promise<{ entries: AuditRecord[]; nextCursor: string | null }> {
    const page = await pageShardedList(this.table, AUDIT_LIST, limit, cursor);
    return { entries: page.items.map(toAuditRecord), nextCursor: page.nextCursor };
  }
}

/**
 * The put of an entry inside another write's transaction, so the change and its record go
 * together: a function apart, so that a store writing one does not carry the trail's lists.
 */
export function auditEntryPut(table: Table, record: AuditRecord): TransactItem {
  return { Put: auditPutInput(table, record) };
}

function auditPutInput(table: Table, record: AuditRecord) {
  const key = auditEntryKey(record);
  return {
    TableName: table.name,
    Item: {
      ...key,
      entity: 'AuditEntry',
      GSI1PK: AUDIT_INDEX_PARTITION,
      GSI1SK: key.SK,
      ...record,
      expiresAt: Math.floor(Date.parse(record.at) / 1000) + RETENTION_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}
