import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../../shared/schemas/session';
import type { LicenseRecord, SessionRecord, Sessions } from '../../domain/identity/ports';
import { getItemsByKey } from '../table/batch-get';
import { createdSortKey } from '../table/keys';
import { queryAll } from '../table/query-all';
import { applied, type Table } from '../table/table';
import { licenseItemKey, licenseSessionsPartition, sessionKey } from './keys';
import { licenseFromItem } from './licenses';

function sessionFromItem(item: Record<string, unknown>): SessionRecord {
  return {
    sessionId: item.sessionId as string,
    licenseKeyHash: item.licenseKeyHash as string,
    role: item.role as Role,
    email: item.email as string,
    createdAt: item.createdAt as string,
    expiresAt: item.expiresAt as number,
    ...(item.secondFactorPending === true ? { secondFactorPending: true } : {}),
    ...(typeof item.secondFactorAt === 'string' ? { secondFactorAt: item.secondFactorAt } : {}),
  };
}

export class SessionRepository implements Sessions {
  constructor(private readonly table: Table) {}

  async create(record: SessionRecord): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...sessionKey(record.sessionId),
          entity: 'Session',
          GSI2PK: licenseSessionsPartition(record.licenseKeyHash),
          GSI2SK: createdSortKey(record.createdAt, record.sessionId),
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(sessionId: string): Promise<SessionRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: sessionKey(sessionId), ConsistentRead: true }),
    );
    return Item ? sessionFromItem(Item) : null;
  }

  /**
   * A session and the licence it claims to belong to, in one BatchGetItem (every protected request
   * reads both): the caller still checks that the session names that licence.
   */
  async getWithLicense(
    sessionId: string,
    licenseKeyHash: string,
  ): Promise<{ session: SessionRecord | null; license: LicenseRecord | null }> {
    const found = await getItemsByKey(this.table, [sessionKey(sessionId), licenseItemKey(licenseKeyHash)]);
    const session = found.get(sessionKey(sessionId));
    const license = found.get(licenseItemKey(licenseKeyHash));
    return {
      session: session ? sessionFromItem(session) : null,
      license: license ? licenseFromItem(license) : null,
    };
  }

  /** Records that the session just passed its second factor (a step-up before a sensitive action). */
  async markSecondFactor(sessionId: string, at: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: sessionKey(sessionId),
        UpdateExpression: 'SET secondFactorAt = :at',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(secondFactorPending)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  }

  async delete(sessionId: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: sessionKey(sessionId) }));
  }

  /** Keeps a session's e-mail in step with the profile it belongs to (the lawyer changed his). */
  async updateEmail(sessionId: string, email: string): Promise<void> {
    // Signed out meanwhile: there is nothing left to keep in step.
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: sessionKey(sessionId),
          UpdateExpression: 'SET email = :email',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':email': email },
        }),
      ),
    );
  }

  /**
   * Ends the oldest sessions of a licence beyond the `keep` newest; returns how many it ended. Run
   * after each sign-in, so concurrent sign-ins converge on the cap.
   */
  async keepNewest(keyHash: string, keep: number): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': licenseSessionsPartition(keyHash) },
      ProjectionExpression: 'sessionId',
      ScanIndexForward: false,
    });
    const ended = items.slice(keep);
    await Promise.all(ended.map((item) => this.delete(item.sessionId as string)));
    return ended.length;
  }

  /** Ends every session of a licence (its lawyer is deleted); returns how many there were. */
  async deleteByLicense(keyHash: string): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': licenseSessionsPartition(keyHash) },
      ProjectionExpression: 'sessionId',
    });
    for (const item of items) await this.delete(item.sessionId as string);
    return items.length;
  }
}
