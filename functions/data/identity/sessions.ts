import { randomUUID } from 'node:crypto';

import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

import type { Role } from '../../../shared/schemas/session';
import type {
  LicenseRecord,
  PlaceCount,
  SessionPool,
  SessionRecord,
  Sessions,
} from '../../domain/identity/ports';
import { getItemsByKey } from '../table/batch-get';
import { createdSortKey } from '../table/keys';
import { queryAll } from '../table/query-all';
import type { Table } from '../table/table';
import { applied, isConditionFailure } from '../table/table-errors';
import {
  lawyerLicenseClaimKey,
  licenseItemKey,
  licenseSessionsPartition,
  sessionKey,
  sessionPoolKey,
  sessionPoolName,
} from './keys';
import { licenseFromItem } from './licenses';

export type { SessionPool, SessionRecord };

/**
 * Sort keys of the licence's sessions in GSI2: a verified session by its creation (as always), a
 * pending one under `PENDING#<pool>#`, after every date, so that a pool is one key condition.
 */
const PENDING_PREFIX = 'PENDING#';
const pendingPoolPrefix = (deviceId: string | null) => `${PENDING_PREFIX}${deviceId ?? '-'}#`;
/** A session ended by the cap: its id stays taken until it would have expired. */
const ENDED_SESSION = 'EndedSession';
const poolSortKey = (record: SessionRecord) =>
  record.secondFactorPending
    ? `${pendingPoolPrefix(record.deviceId ?? null)}${createdSortKey(record.createdAt, record.sessionId)}`
    : createdSortKey(record.createdAt, record.sessionId);

/** The session of an item, or null for none or an ended one. */
function sessionOf(item: Record<string, unknown> | undefined): SessionRecord | null {
  return item && item.entity !== ENDED_SESSION ? sessionFromItem(item) : null;
}

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
    ...(typeof item.deviceId === 'string' ? { deviceId: item.deviceId } : {}),
  };
}

export class SessionRepository implements Sessions {
  constructor(private readonly table: Table) {}

  async takePlace(keyHash: string, pool: SessionPool): Promise<{ number: number; salt: string }> {
    const { Attributes } = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: sessionPoolKey(keyHash, sessionPoolName(pool)),
        // The salt is the pool's from its first place on: a pool counted anew never meets old ids.
        UpdateExpression: 'ADD places :one SET salt = if_not_exists(salt, :salt), entity = :entity',
        ExpressionAttributeValues: { ':one': 1, ':salt': randomUUID(), ':entity': 'SessionPool' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { number: Attributes?.places as number, salt: Attributes?.salt as string };
  }

  /**
   * The session and the one its place ends: one TransactWriteItems. The session is written only
   * where no item is, so one that its place's successor already ended stays ended (false; the one
   * its own place ends is ended all the same, so that the cap holds).
   */
  async create(record: SessionRecord, ends: string | null, counts?: PlaceCount): Promise<boolean> {
    const put = {
      TableName: this.table.name,
      Item: {
        ...sessionKey(record.sessionId),
        entity: 'Session',
        GSI2PK: licenseSessionsPartition(record.licenseKeyHash),
        GSI2SK: poolSortKey(record),
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    };
    // Replaces the ended session (out of its licence's index), or stands where it would be written.
    const end = ends
      ? {
          TableName: this.table.name,
          Item: { ...sessionKey(ends), entity: ENDED_SESSION, expiresAt: record.expiresAt },
        }
      : null;
    // The place counted with the session, if the pool still counts the places it was read with.
    const count = counts
      ? {
          TableName: this.table.name,
          Key: sessionPoolKey(record.licenseKeyHash, sessionPoolName(counts.pool)),
          UpdateExpression: 'SET places = :number, salt = :salt, entity = :entity',
          ConditionExpression: counts.number === 1 ? 'attribute_not_exists(places)' : 'places = :counted',
          ExpressionAttributeValues: {
            ':number': counts.number,
            ':salt': counts.salt,
            ':entity': 'SessionPool',
            ...(counts.number === 1 ? {} : { ':counted': counts.number - 1 }),
          },
        }
      : null;
    const writes = [...(count ? [{ Update: count }] : []), { Put: put }, ...(end ? [{ Put: end }] : [])];
    try {
      if (writes.length > 1) await this.table.doc.send(new TransactWriteCommand({ TransactItems: writes }));
      else await this.table.doc.send(new PutCommand(put));
      return true;
    } catch (error) {
      // Another sign-in counted that place first (or wrote beside it): nothing was written.
      if (count && error instanceof Error && error.name === 'TransactionCanceledException') return false;
      if (!isConditionFailure(error)) throw error;
      if (end) await this.table.doc.send(new PutCommand(end));
      return false;
    }
  }

  async get(sessionId: string): Promise<SessionRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: sessionKey(sessionId), ConsistentRead: true }),
    );
    return sessionOf(Item);
  }

  /**
   * A session, the licence it claims to belong to and the claim of the profile holding that
   * licence's key, in one BatchGetItem (every protected request reads them; a member's requests then
   * know his profile's e-mail without reading it): the caller still checks that the session names
   * that licence.
   */
  async getWithLicense(
    sessionId: string,
    licenseKeyHash: string,
  ): Promise<{ session: SessionRecord | null; license: LicenseRecord | null; holderEmail: string | null }> {
    const found = await getItemsByKey(this.table, [
      sessionKey(sessionId),
      licenseItemKey(licenseKeyHash),
      lawyerLicenseClaimKey(licenseKeyHash),
    ]);
    const session = found.get(sessionKey(sessionId));
    const license = found.get(licenseItemKey(licenseKeyHash));
    const holderEmail = found.get(lawyerLicenseClaimKey(licenseKeyHash))?.email;
    return {
      session: sessionOf(session),
      license: license ? licenseFromItem(license) : null,
      holderEmail: typeof holderEmail === 'string' && holderEmail.length > 0 ? holderEmail : null,
    };
  }

  /**
   * Records that the session just passed its second factor (a step-up before a sensitive action),
   * from the remembered browser `deviceId`.
   */
  async markSecondFactor(sessionId: string, at: string, deviceId: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: sessionKey(sessionId),
        UpdateExpression: 'SET secondFactorAt = :at, deviceId = :device',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(secondFactorPending)',
        ExpressionAttributeValues: { ':at': at, ':device': deviceId },
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
   * Ends every session of a licence, pending ones included (its lawyer is deleted, its factor
   * changed), but `except` (the session making the change); returns how many it ended. Without
   * `except`, its pools' counts go too.
   */
  async deleteByLicense(keyHash: string, options: { readonly except?: string } = {}): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': licenseSessionsPartition(keyHash) },
      ProjectionExpression: 'sessionId',
    });
    const ended = items.filter((item) => item.sessionId !== options.except);
    await Promise.all(ended.map((item) => this.delete(item.sessionId as string)));
    // None left: the licence's pools go too (they name its key's hash), counted anew if it signs in.
    if (options.except === undefined) {
      const pools = await queryAll(this.table, {
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :pool)',
        ExpressionAttributeValues: { ':pk': licenseItemKey(keyHash).PK, ':pool': 'SESSION_POOL#' },
        ProjectionExpression: 'PK, SK',
      });
      await Promise.all(
        pools.map((pool) =>
          this.table.doc.send(
            new DeleteCommand({ TableName: this.table.name, Key: { PK: pool.PK, SK: pool.SK } }),
          ),
        ),
      );
    }
    return ended.length;
  }

  /** Ends the sessions of a licence opened from one remembered browser (it was forgotten). */
  async deleteByDevice(keyHash: string, deviceId: string): Promise<number> {
    const items = await queryAll(this.table, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      FilterExpression: 'deviceId = :device',
      ExpressionAttributeValues: { ':pk': licenseSessionsPartition(keyHash), ':device': deviceId },
      ProjectionExpression: 'sessionId',
    });
    await Promise.all(items.map((item) => this.delete(item.sessionId as string)));
    return items.length;
  }
}
