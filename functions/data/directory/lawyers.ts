import {
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/core/ports';
import type { JoinedWrite, Lawyers } from '../../domain/directory/ports';
import { LawyerChangedError, LawyerConflictError, type LawyerRecord } from '../../domain/directory/ports';
import { type SearchTerms, searchText } from '../../domain/directory/search-terms';
import { lawyerLicenseClaimKey } from '../identity/keys';
import { batchGetAll } from '../table/batch-get';
import { createdSortKey } from '../table/keys';
import type { ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import { isConditionFailure } from '../table/table-errors';
import { lawyerCounterWrite } from './counters';
import { joinedItem } from './joined-writes';
import {
  counterAttribute,
  LAWYERS_PARTITION,
  lawyerEmailClaimKey,
  lawyerKey,
  ownerCountersKey,
} from './keys';
import { pageSearchedList, type SearchableItem, searchEntryWrites } from './search-index';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Every lawyer in GSI1, newest first: one partition, one Query a page. */
const LAWYER_LIST: ShardedList = { name: LAWYERS_PARTITION, index: 'GSI1', partitions: [LAWYERS_PARTITION] };

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

/** A lawyer is searched by first name, last name, e-mail and office name (spec §2). */
const searchedTexts = (record: LawyerRecord) => [
  record.firstName,
  record.lastName,
  record.email,
  record.officeName,
];

const searchable = (record: LawyerRecord): SearchableItem => ({
  partition: lawyerKey(record.id).PK,
  id: record.id,
  sortKey: createdSortKey(record.createdAt, record.id),
  texts: searchedTexts(record),
});

function toRecord(item: Record<string, unknown>): LawyerRecord {
  return {
    ...(Object.fromEntries(
      RECORD_FIELDS.map((field) => [field, item[field] ?? null]),
    ) as unknown as LawyerRecord),
    // Only a lawyer whose licence e-mail SES reported undelivered carries the mark.
    ...(typeof item.licenseEmailUndeliveredAt === 'string'
      ? { licenseEmailUndeliveredAt: item.licenseEmailUndeliveredAt }
      : {}),
  };
}

/**
 * Lawyer profiles read by id, e-mail or licence key: what the functions that only look a lawyer up
 * need, without the writes and the list of the full repository.
 */
export class LawyerReader {
  constructor(protected readonly table: Table) {}

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

  /** Several lawyers by id, in the order of `ids`; an id without a lawyer is left out. */
  async getMany(ids: readonly string[]): Promise<LawyerRecord[]> {
    const items = await batchGetAll(this.table, ids.map(lawyerKey));
    const byId = new Map(items.map((item) => [item.id as string, item]));
    return ids.flatMap((id) => {
      const item = byId.get(id);
      return item ? [toRecord(item)] : [];
    });
  }

  protected async followClaim(key: Record<string, string>): Promise<LawyerRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }),
    );
    return Item ? this.getById(Item.lawyerId as string) : null;
  }
}

/**
 * Lawyer profiles (spec §7 lawyers calls). Uniqueness of the e-mail and of the licence key is held
 * by claim items written in the same transaction as the profile, each with attribute_not_exists.
 */
export class LawyerRepository extends LawyerReader implements Lawyers {
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
      ...(record.licenseKeyHash ? [this.licenseClaim(record.licenseKeyHash, record)] : []),
      // One more lawyer on the counter, his search entries and his name beside his counters, with him.
      lawyerCounterWrite(this.table, 1),
      this.ownerName(record),
      ...searchEntryWrites(this.table, 'LAWYERS', null, searchable(record)),
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
      ...searchEntryWrites(this.table, 'LAWYERS', searchable(previous), searchable(next)),
      ...alsoWrite.map((write) => this.joined(write)),
    ];
    if (previous.email !== next.email) items.push(this.ownerNameRemoved(previous), this.ownerName(next));
    else if (previous.firstName !== next.firstName || previous.lastName !== next.lastName)
      items.push(this.ownerName(next));
    if (previous.email !== next.email) {
      items.push(
        this.release(lawyerEmailClaimKey(previous.email), previous.id),
        this.claim(lawyerEmailClaimKey(next.email), next.id),
      );
    }
    if (previous.licenseKeyHash && previous.licenseKeyHash !== next.licenseKeyHash)
      items.push(this.release(lawyerLicenseClaimKey(previous.licenseKeyHash), previous.id));
    // Written again with every change: the e-mail it carries is the profile's as it is now.
    if (next.licenseKeyHash) items.push(this.licenseClaim(next.licenseKeyHash, next));
    await this.transact(items);
  }

  /**
   * One page of lawyers, newest first (spec: select all, a page at a time); with a search, those it
   * finds by first name, last name, e-mail or office name (the search index; a search of short
   * words only filters the list, at most `READ_BUDGET` pages a page).
   */
  async page(limit: number, cursor?: string, terms?: SearchTerms | null): Promise<Page<LawyerRecord>> {
    return pageSearchedList(this.table, {
      list: 'LAWYERS',
      sharded: LAWYER_LIST,
      terms,
      limit,
      cursor,
      byIds: (ids) => this.getMany(ids),
      toRecord,
    });
  }

  /**
   * Deletes a lawyer (as read: a concurrent change refuses it), his claims, his search entries and
   * one lawyer on the counter; `alsoWrite` joins other deletions to the transaction.
   */
  async delete(record: LawyerRecord, alsoWrite: readonly JoinedWrite[] = []): Promise<void> {
    await this.transact([
      {
        Delete: {
          TableName: this.table.name,
          Key: lawyerKey(record.id),
          ConditionExpression: 'updatedAt = :previous',
          ExpressionAttributeValues: { ':previous': record.updatedAt },
        },
      },
      this.release(lawyerEmailClaimKey(record.email), record.id),
      ...(record.licenseKeyHash
        ? [this.release(lawyerLicenseClaimKey(record.licenseKeyHash), record.id)]
        : []),
      lawyerCounterWrite(this.table, -1),
      ...searchEntryWrites(this.table, 'LAWYERS', searchable(record), null),
      // His counters go with him once his workflows are gone (they name his e-mail).
      {
        Delete: {
          TableName: this.table.name,
          Key: ownerCountersKey(record.email),
          ConditionExpression: 'attribute_not_exists(#total) OR #total = :zero',
          ExpressionAttributeNames: { '#total': counterAttribute('total') },
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      ...alsoWrite.map((write) => this.joined(write)),
    ]);
  }

  async markLicenseEmail(
    id: string,
    undeliveredAt: string | null,
    now: string,
    alsoWrite: readonly JoinedWrite[] = [],
  ): Promise<void> {
    const mark = {
      TableName: this.table.name,
      Key: lawyerKey(id),
      UpdateExpression: 'SET licenseEmailUndeliveredAt = :at, updatedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':at': undeliveredAt, ':now': now },
    };
    const joined = alsoWrite.map((write) => joinedItem(this.table, write));
    try {
      if (joined.length === 0) await this.table.doc.send(new UpdateCommand(mark));
      else
        await this.table.doc.send(new TransactWriteCommand({ TransactItems: [{ Update: mark }, ...joined] }));
    } catch (error) {
      // Deleted meanwhile: nothing left to mark, but what happened (an e-mail sent) is recorded.
      if (!isConditionFailure(error)) throw error;
      if (joined.length > 0) await this.table.doc.send(new TransactWriteCommand({ TransactItems: joined }));
    }
  }

  private profileItem(record: LawyerRecord) {
    return {
      ...lawyerKey(record.id),
      entity: 'Lawyer',
      GSI1PK: LAWYERS_PARTITION,
      GSI1SK: createdSortKey(record.createdAt, record.id),
      ...record,
      search: searchText(searchedTexts(record)),
    };
  }

  /** A write joining the profile's transaction, as the table takes it. */
  private joined(write: JoinedWrite): TransactItem {
    return joinedItem(this.table, write);
  }

  /** His name on the counters item of his e-mail, where a page of automations reads its lawyers'. */
  private ownerName(record: LawyerRecord): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: ownerCountersKey(record.email),
        UpdateExpression: 'SET firstName = :first, lastName = :last',
        ExpressionAttributeValues: { ':first': record.firstName, ':last': record.lastName },
      },
    };
  }

  private ownerNameRemoved(record: LawyerRecord): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: ownerCountersKey(record.email),
        UpdateExpression: 'REMOVE firstName, lastName',
      },
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

  /**
   * The profile's claim on its licence key, with its e-mail: a signed-in member's requests read it
   * with his session and know the e-mail his automations are listed under without reading his profile.
   */
  private licenseClaim(keyHash: string, record: LawyerRecord): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: {
          ...lawyerLicenseClaimKey(keyHash),
          entity: 'LawyerClaim',
          lawyerId: record.id,
          email: record.email,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR lawyerId = :id',
        ExpressionAttributeValues: { ':id': record.id },
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
