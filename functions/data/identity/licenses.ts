import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LicenseType } from '../../../shared/schemas/session';
import type { Licenses } from '../../domain/identity/ports';
import {
  LicenseKeyTakenError,
  LicenseNotFoundError,
  type LicenseRecord,
  type LicenseState,
  type PoolCount,
  type SignInItems,
} from '../../domain/identity/ports';
import { getItemsByKey } from '../table/batch-get';
import { queryAll } from '../table/query-all';
import type { Table } from '../table/table';
import { applied, isConditionFailure } from '../table/table-errors';
import {
  lawyerLicenseClaimKey,
  licenseEmailPartition,
  licenseItemKey,
  licenseTypePrefix,
  licenseTypeSortKey,
  normaliseLicenseEmail,
  secondFactorKey,
  sessionPoolKey,
  sessionPoolName,
} from './keys';
import { secondFactorFromItem } from './second-factor-item';

/** GSI1SK is always written; GSI1PK only with an e-mail, so licences without one stay out of the index. */
const emailIndexKeys = (record: Pick<LicenseRecord, 'userEmail' | 'licenseType' | 'keyHash'>) => ({
  ...(record.userEmail ? { GSI1PK: licenseEmailPartition(record.userEmail) } : {}),
  GSI1SK: licenseTypeSortKey(record.licenseType, record.keyHash),
});

/** A licence item as a record (also for the reads that fetch it beside other items). */
export function licenseFromItem(item: Record<string, unknown>): LicenseRecord {
  return {
    keyHash: item.keyHash as string,
    keyCiphertext: item.keyCiphertext as string,
    licenseType: item.licenseType as LicenseType,
    userEmail: (item.userEmail as string | null) ?? null,
    isActive: item.isActive === true,
    subscriptionStatus: (item.subscriptionStatus as string | null) ?? null,
    nextPaymentDue: (item.nextPaymentDue as string | null) ?? null,
    accessEndsAt: (item.accessEndsAt as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    // Only a licence whose e-mail SES reported undelivered carries the mark.
    ...(typeof item.licenseEmailUndeliveredAt === 'string'
      ? { licenseEmailUndeliveredAt: item.licenseEmailUndeliveredAt }
      : {}),
  };
}

/** The put of a new licence, usable alone or inside a transaction; fails if the key exists. */
export function putLicenseItem(table: Table, record: LicenseRecord) {
  return {
    TableName: table.name,
    Item: {
      ...licenseItemKey(record.keyHash),
      ...emailIndexKeys(record),
      entity: 'License',
      ...record,
      userEmail: record.userEmail === null ? null : normaliseLicenseEmail(record.userEmail),
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}

/** The deletion of a licence inside a transaction (a lawyer's deletion removes his licence with him). */
export function deleteLicenseItem(table: Table, keyHash: string) {
  return { TableName: table.name, Key: licenseItemKey(keyHash) };
}

/** The change of a licence's type inside a transaction; refused if its type is no longer `from`. */
export function licenseRoleUpdate(
  table: Table,
  change: { keyHash: string; from: LicenseType; to: LicenseType; at: string },
) {
  return {
    TableName: table.name,
    Key: licenseItemKey(change.keyHash),
    UpdateExpression: 'SET licenseType = :to, GSI1SK = :sortKey, updatedAt = :at',
    ConditionExpression: 'licenseType = :from',
    ExpressionAttributeValues: {
      ':to': change.to,
      ':from': change.from,
      ':sortKey': licenseTypeSortKey(change.to, change.keyHash),
      ':at': change.at,
    },
  };
}

/** Licence records (spec §7 license_keys calls). Every access is a GetItem or a Query. */
export class LicenseRepository implements Licenses {
  constructor(private readonly table: Table) {}

  /** Creates a licence; a key that already exists is refused by the condition, never overwritten. */
  async create(record: LicenseRecord): Promise<void> {
    try {
      await this.table.doc.send(new PutCommand(putLicenseItem(this.table, record)));
    } catch (error) {
      if (isConditionFailure(error))
        throw new LicenseKeyTakenError('Clé de licence déjà émise', { cause: error });
      throw error;
    }
  }

  /** The licence of a key hash, or null. */
  async getByHash(keyHash: string): Promise<LicenseRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: licenseItemKey(keyHash), ConsistentRead: true }),
    );
    return Item ? licenseFromItem(Item) : null;
  }

  /** The licence stored under the first of these hashes that has one (a key's `vault.hashes`). */
  async getByAnyHash(keyHashes: readonly string[]): Promise<LicenseRecord | null> {
    for (const keyHash of keyHashes) {
      const found = await this.getByHash(keyHash);
      if (found) return found;
    }
    return null;
  }

  /**
   * The licence stored under the first of these hashes that has one (a key's `vault.hashes`), with
   * its second factor, the claim naming the profile that holds its key and the counts of the two
   * session pools its session may open in: every item of every hash in one BatchGetItem, instead of
   * the licence look-ups one after the other and then the others.
   * Null when no hash has a licence (a wrong key).
   */
  async getForSignIn(
    keyHashes: readonly string[],
    device: { readonly licenseKeyHash: string; readonly deviceId: string } | null = null,
  ): Promise<SignInItems | null> {
    // The pending pool of the browser the sign-in comes from: its own if it is remembered for that key.
    const poolsOf = (keyHash: string) => ({
      verified: sessionPoolKey(keyHash, sessionPoolName({ kind: 'verified' })),
      pending: sessionPoolKey(
        keyHash,
        sessionPoolName({
          kind: 'pending',
          deviceId: device?.licenseKeyHash === keyHash ? device.deviceId : null,
        }),
      ),
    });
    const found = await getItemsByKey(
      this.table,
      keyHashes.flatMap((keyHash) => [
        licenseItemKey(keyHash),
        secondFactorKey(keyHash),
        lawyerLicenseClaimKey(keyHash),
        poolsOf(keyHash).verified,
        poolsOf(keyHash).pending,
      ]),
    );
    const poolCount = (item: Record<string, unknown> | undefined): PoolCount | null =>
      typeof item?.places === 'number' && typeof item.salt === 'string'
        ? { places: item.places, salt: item.salt }
        : null;
    for (const keyHash of keyHashes) {
      const license = found.get(licenseItemKey(keyHash));
      if (!license) continue;
      const secondFactor = found.get(secondFactorKey(keyHash));
      const claim = found.get(lawyerLicenseClaimKey(keyHash));
      const pools = poolsOf(keyHash);
      return {
        license: licenseFromItem(license),
        secondFactor: secondFactor ? secondFactorFromItem(keyHash, secondFactor) : null,
        boundLawyerId: typeof claim?.lawyerId === 'string' ? claim.lawyerId : null,
        pools: {
          verified: poolCount(found.get(pools.verified)),
          pending: poolCount(found.get(pools.pending)),
        },
      };
    }
    return null;
  }

  /** The licence of a user e-mail and type (spec: select single row by user_email and license_type). */
  async findByUserEmail(userEmail: string, licenseType: LicenseType): Promise<LicenseRecord | null> {
    const { Items } = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :type)',
        ExpressionAttributeValues: {
          ':pk': licenseEmailPartition(userEmail),
          ':type': licenseTypePrefix(licenseType),
        },
        Limit: 1,
      }),
    );
    const item = Items?.[0];
    return item ? licenseFromItem(item) : null;
  }

  /** Every licence associated with an e-mail, of any type (a lawyer's deletion removes his). */
  async listByUserEmail(userEmail: string): Promise<LicenseRecord[]> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': licenseEmailPartition(userEmail) },
    });
    return items.map(licenseFromItem);
  }

  /** Associates a licence with an e-mail (spec: update user_email by license_key). */
  async updateUserEmail(keyHash: string, userEmail: string, now: string): Promise<void> {
    const updated = await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: licenseItemKey(keyHash),
          UpdateExpression: 'SET userEmail = :email, updatedAt = :now, GSI1PK = :gpk',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: {
            ':email': normaliseLicenseEmail(userEmail),
            ':now': now,
            ':gpk': licenseEmailPartition(userEmail),
          },
        }),
      ),
    );
    if (!updated) throw new LicenseNotFoundError();
  }

  /** Sets whether a licence is active, with its subscription state. */
  async updateState(keyHash: string, state: LicenseState, now: string): Promise<void> {
    const updated = await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: licenseItemKey(keyHash),
          UpdateExpression:
            'SET isActive = :active, subscriptionStatus = :status, nextPaymentDue = :due, accessEndsAt = :ends, updatedAt = :now',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: {
            ':active': state.isActive,
            ':status': state.subscriptionStatus,
            ':due': state.nextPaymentDue,
            ':ends': state.accessEndsAt,
            ':now': now,
          },
        }),
      ),
    );
    if (!updated) throw new LicenseNotFoundError();
  }

  /** Marks or clears its key e-mail as undelivered (SES bounce or complaint, then a resend). */
  async markLicenseEmail(keyHash: string, undeliveredAt: string | null, now: string): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: licenseItemKey(keyHash),
          UpdateExpression: 'SET licenseEmailUndeliveredAt = :at, updatedAt = :now',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':at': undeliveredAt, ':now': now },
        }),
      ),
    );
  }

  async claimLicenseEmailResend(keyHash: string, at: string, notBefore: string): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: licenseItemKey(keyHash),
          UpdateExpression: 'SET licenseEmailResentAt = :at',
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(licenseEmailResentAt) OR licenseEmailResentAt <= :notBefore)',
          ExpressionAttributeValues: { ':at': at, ':notBefore': notBefore },
        }),
      ),
    );
  }

  async releaseLicenseEmailResend(keyHash: string, at: string): Promise<void> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: licenseItemKey(keyHash),
          UpdateExpression: 'REMOVE licenseEmailResentAt',
          ConditionExpression: 'licenseEmailResentAt = :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
  }

  /** Removes a licence. */
  async delete(keyHash: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.name, Key: licenseItemKey(keyHash) }),
    );
  }
}
