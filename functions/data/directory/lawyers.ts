import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/core/ports';
import type { JoinedWrite, Lawyers } from '../../domain/directory/ports';
import { LawyerChangedError, LawyerConflictError, type LawyerRecord } from '../../domain/directory/ports';
import { lawyerLicenseClaimKey } from '../identity/keys';
import { deleteLicenseItem, putLicenseItem } from '../identity/licenses';
import { createdSortKey, listPartitions } from '../table/keys';
import { pageShardedList, type ShardedList } from '../table/sharded-list';
import { isConditionFailure, type Table } from '../table/table';
import { AuditRepository } from './audit';
import { LAWYERS_PARTITION, lawyerEmailClaimKey, lawyerKey, lawyerListPartition } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Every lawyer in GSI1, newest first, over the list's shards. */
const LAWYER_LIST: ShardedList = {
  name: LAWYERS_PARTITION,
  index: 'GSI1',
  partitions: listPartitions(LAWYERS_PARTITION),
};

const RECORD_FIELDS = [
  'id',
  'firstName',
  'lastName',
  'email',
  'mainEmail',
  'emailSignature',
  'reminderFrequency',
  'phoneNumber',
  'officeName',
  'licenseKeyHash',
  'licenseKeyCiphertext',
  'hasGooglePassword',
  'hasGoogleCredentials',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof LawyerRecord)[];

function toRecord(item: Record<string, unknown>): LawyerRecord {
  return Object.fromEntries(
    RECORD_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as LawyerRecord;
}

/**
 * Lawyer profiles (spec §7 lawyers calls). Uniqueness of the e-mail and of the licence key is held
 * by claim items written in the same transaction as the profile, each with attribute_not_exists.
 */
export class LawyerRepository implements Lawyers {
  constructor(private readonly table: Table) {}

  /** Creates a lawyer with its claims; `alsoWrite` joins other writes (his licence) to the transaction. */
  async create(record: LawyerRecord, alsoWrite: readonly JoinedWrite[] = []): Promise<void> {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table.name,
          Item: this.profileItem(record),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      this.claim(lawyerEmailClaimKey(record.email), record.id),
      ...(record.licenseKeyHash ? [this.claim(lawyerLicenseClaimKey(record.licenseKeyHash), record.id)] : []),
      ...alsoWrite.map((write) => this.joined(write)),
    ];
    await this.transact(items);
  }

  /**
   * Replaces a lawyer's profile, moving his claims when the e-mail or the licence key change. The
   * write is refused if the profile changed since `previous` was read.
   */
  async update(
    previous: LawyerRecord,
    next: LawyerRecord,
    alsoWrite: readonly JoinedWrite[] = [],
  ): Promise<void> {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table.name,
          Item: this.profileItem(next),
          ConditionExpression: 'updatedAt = :previous',
          ExpressionAttributeValues: { ':previous': previous.updatedAt },
        },
      },
      ...alsoWrite.map((write) => this.joined(write)),
    ];
    if (previous.email !== next.email) {
      items.push(
        this.release(lawyerEmailClaimKey(previous.email), previous.id),
        this.claim(lawyerEmailClaimKey(next.email), next.id),
      );
    }
    if (previous.licenseKeyHash !== next.licenseKeyHash) {
      if (previous.licenseKeyHash)
        items.push(this.release(lawyerLicenseClaimKey(previous.licenseKeyHash), previous.id));
      if (next.licenseKeyHash) items.push(this.claim(lawyerLicenseClaimKey(next.licenseKeyHash), next.id));
    }
    await this.transact(items);
  }

  /** A lawyer by id, or null. */
  async getById(id: string): Promise<LawyerRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: lawyerKey(id), ConsistentRead: true }),
    );
    return Item ? toRecord(Item) : null;
  }

  /** The lawyer whose e-mail this is, or null (spec: select one by email). */
  async findByEmail(email: string): Promise<LawyerRecord | null> {
    return this.followClaim(lawyerEmailClaimKey(email));
  }

  /** The lawyer holding this licence key, or null (spec: select one by license_key). */
  async findByLicenseHash(keyHash: string): Promise<LawyerRecord | null> {
    return this.followClaim(lawyerLicenseClaimKey(keyHash));
  }

  /** The lawyer holding the first of these key hashes that has one (a key's `vault.hashes`). */
  async findByAnyLicenseHash(keyHashes: readonly string[]): Promise<LawyerRecord | null> {
    for (const keyHash of keyHashes) {
      const found = await this.findByLicenseHash(keyHash);
      if (found) return found;
    }
    return null;
  }

  /** One page of lawyers, newest first (spec: select all, a page at a time). */
  async page(limit: number, cursor?: string): Promise<Page<LawyerRecord>> {
    const page = await pageShardedList(this.table, LAWYER_LIST, limit, cursor);
    return { items: page.items.map(toRecord), nextCursor: page.nextCursor };
  }

  /** Deletes a lawyer and his claims; `alsoWrite` joins other deletions to the transaction. */
  async delete(record: LawyerRecord, alsoWrite: readonly JoinedWrite[] = []): Promise<void> {
    await this.transact([
      { Delete: { TableName: this.table.name, Key: lawyerKey(record.id) } },
      this.release(lawyerEmailClaimKey(record.email), record.id),
      ...(record.licenseKeyHash
        ? [this.release(lawyerLicenseClaimKey(record.licenseKeyHash), record.id)]
        : []),
      ...alsoWrite.map((write) => this.joined(write)),
    ]);
  }

  /** A write joining the profile's transaction, as the table takes it. */
  private joined(write: JoinedWrite): TransactItem {
    if ('newLicense' in write) return { Put: putLicenseItem(this.table, write.newLicense) };
    if ('removedLicense' in write) return { Delete: deleteLicenseItem(this.table, write.removedLicense) };
    return new AuditRepository(this.table).transactItem(write.auditEntry);
  }

  private profileItem(record: LawyerRecord) {
    return {
      ...lawyerKey(record.id),
      entity: 'Lawyer',
      GSI1PK: lawyerListPartition(record.id),
      GSI1SK: createdSortKey(record.createdAt, record.id),
      ...record,
    };
  }

  private claim(key: Record<string, string>, lawyerId: string): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: { ...key, entity: 'LawyerClaim', lawyerId },
        ConditionExpression: 'attribute_not_exists(PK) OR lawyerId = :id',
        ExpressionAttributeValues: { ':id': lawyerId },
      },
    };
  }

  private release(key: Record<string, string>, lawyerId: string): TransactItem {
    return {
      Delete: {
        TableName: this.table.name,
        Key: key,
        ConditionExpression: 'attribute_not_exists(PK) OR lawyerId = :id',
        ExpressionAttributeValues: { ':id': lawyerId },
      },
    };
  }

  private async followClaim(key: Record<string, string>): Promise<LawyerRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }),
    );
    return Item ? this.getById(Item.lawyerId as string) : null;
  }

  private async transact(items: TransactItem[]): Promise<void> {
    try {
      await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      // The first item is always the profile: its condition failing means a concurrent change.
      if (reasons[0]?.Code === 'ConditionalCheckFailed')
        throw new LawyerChangedError('Avocat modifié entre-temps', { cause: error });
      throw new LawyerConflictError('Email ou clé de licence déjà utilisés', { cause: error });
    }
  }
}
