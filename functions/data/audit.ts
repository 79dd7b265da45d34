import { PutCommand, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';

import { RETENTION_DAYS } from '../../shared/constants';
import { AUDIT_INDEX_PARTITION, AUDIT_PREFIX, auditEntryKey } from './keys';
import type { Table } from './table';

/** One audit entry as stored: who did what, when, to what. */
export interface AuditRecord {
  id: string;
  at: string;
  /** The admin's e-mail, or 'admin' when his licence has none. */
  actorEmail: string;
  /** What was done, as `<resource>.<verb>` ('lawyer.delete', 'lawyer.secrets.reveal', ...). */
  action: string;
  /** What it was done to, as `<resource>:<id>`; never a name, an e-mail, a key or a secret. */
  target: string;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Audit entries are kept as long as contractual records (spec §9: 5 years), then TTL removes them. */
const RETENTION_SECONDS = Math.round(RETENTION_DAYS.billingYears * 365.25 * 24 * 60 * 60);

/** The position after which the next page starts: the last key of a page, as DynamoDB gives it. */
const PageKey = z.object({
  PK: z.string().startsWith(AUDIT_PREFIX),
  SK: z.string(),
  GSI1PK: z.literal(AUDIT_INDEX_PARTITION),
  GSI1SK: z.string(),
});

/** A page cursor that this repository did not write. */
export class InvalidAuditCursorError extends Error {
  override name = 'InvalidAuditCursorError';
}

function toRecord(item: Record<string, unknown>): AuditRecord {
  return {
    id: item.id as string,
    at: item.at as string,
    actorEmail: item.actorEmail as string,
    action: item.action as string,
    target: item.target as string,
  };
}

/**
 * The admin audit trail. Entries are partitioned by month in the table and all listed, newest
 * first, from one GSI1 partition: admin actions are a few a day, far below one partition's limits.
 */
export class AuditRepository {
  constructor(private readonly table: Table) {}

  /** Records an entry on its own. */
  async record(record: AuditRecord): Promise<void> {
    await this.table.doc.send(new PutCommand(this.putInput(record)));
  }

  /** The put of an entry inside another transaction, so the change and its record go together. */
  transactItem(record: AuditRecord): TransactItem {
    return { Put: this.putInput(record) };
  }

  /** One page of entries, newest first, and the cursor of the next page (null on the last). */
  async page(limit: number, cursor?: string): Promise<{ entries: AuditRecord[]; nextCursor: string | null }> {
    const { Items, LastEvaluatedKey } = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': AUDIT_INDEX_PARTITION },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: cursor ? decodeCursor(cursor) : undefined,
      }),
    );
    return {
      entries: (Items ?? []).map(toRecord),
      nextCursor: LastEvaluatedKey ? encodeCursor(LastEvaluatedKey) : null,
    };
  }

  private putInput(record: AuditRecord) {
    const key = auditEntryKey(record);
    return {
      TableName: this.table.name,
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
}

function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(PageKey.parse(key)), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    return PageKey.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch (error) {
    throw new InvalidAuditCursorError('Curseur de pagination invalide', { cause: error });
  }
}
