import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttemptPool, ReservedCode, SecondFactorAttempts } from '../../domain/second-factor/ports';

import { queryAll } from '../table/query-all';
import type { Table } from '../table/table';
import { applied, isConditionFailure } from '../table/table-errors';
import { SECOND_FACTOR_PREFIX, secondFactorAttemptsKey } from './keys';

export type { AttemptPool, ReservedCode };

/** Tries of one reservation: each lost race means another code of the same pool counted first. */
const RESERVE_TRIES = 3;

/**
 * Second-factor codes counted per pool over a fixed window. A code is reserved (counted) before it
 * is even looked at, with one conditional write, so concurrent guesses all count and none slips
 * past the limit; a right code then gives its own place back, a wrong one keeps it until the
 * window ends (a right code never erases the wrong ones before it).
 */
export class SecondFactorAttemptRepository implements SecondFactorAttempts {
  constructor(private readonly table: Table) {}

  /** Counts one code; null when the pool's window is full (nothing is counted then). */
  async reserve(
    pool: AttemptPool,
    nowSeconds: number,
    maxAttempts: number,
    windowSeconds: number,
  ): Promise<ReservedCode | null> {
    const Key = secondFactorAttemptsKey(pool.keyHash, pool.deviceId);
    for (let round = 0; round < RESERVE_TRIES; round += 1) {
      let held: Record<string, { N?: string }> | undefined;
      try {
        const { Attributes } = await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key,
            UpdateExpression: 'ADD attempts :one',
            ConditionExpression: 'windowEndsAt > :now AND attempts < :max',
            ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds, ':max': maxAttempts },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { windowEndsAt: Attributes?.windowEndsAt as number };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        held = (error as { Item?: Record<string, { N?: string }> }).Item;
      }
      // An open window that is full: refused.
      const heldUntil = held?.windowEndsAt?.N === undefined ? undefined : Number(held.windowEndsAt.N);
      if (heldUntil !== undefined && heldUntil > nowSeconds) return null;
      // No open window: a new one may start only where none is open (else another request just
      // opened it: try again).
      const windowEndsAt = nowSeconds + windowSeconds;
      const opened = await applied(
        this.table.doc.send(
          new PutCommand({
            TableName: this.table.name,
            Item: {
              ...Key,
              entity: 'SecondFactorAttempts',
              attempts: 1,
              wrongCodes: 0,
              windowEndsAt,
              expiresAt: windowEndsAt,
            },
            ConditionExpression: 'attribute_not_exists(PK) OR windowEndsAt <= :now',
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        ),
      );
      if (opened) return { windowEndsAt };
    }
    return null;
  }

  /** A right code: its place goes back (in the window it was counted in, if still open). */
  async release(pool: AttemptPool, reserved: ReservedCode): Promise<void> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: secondFactorAttemptsKey(pool.keyHash, pool.deviceId),
          UpdateExpression: 'ADD attempts :minusOne',
          ConditionExpression: 'windowEndsAt = :window AND attempts > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':window': reserved.windowEndsAt, ':zero': 0 },
        }),
      ),
    );
  }

  /**
   * A wrong code: it keeps its place; returns how many wrong codes the window holds now (the one
   * that reaches the limit is the one that locks the pool), or 0 when its window is over.
   */
  async markWrong(pool: AttemptPool, reserved: ReservedCode): Promise<number> {
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: secondFactorAttemptsKey(pool.keyHash, pool.deviceId),
          UpdateExpression: 'ADD wrongCodes :one',
          ConditionExpression: 'windowEndsAt = :window',
          ExpressionAttributeValues: { ':one': 1, ':window': reserved.windowEndsAt },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return (Attributes?.wrongCodes as number | undefined) ?? 0;
    } catch (error) {
      if (isConditionFailure(error)) return 0;
      throw error;
    }
  }

  /** Forgets every count of the licence (its factor was reset or it is deleted). */
  async resetLicense(keyHash: string): Promise<void> {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: {
        ':pk': secondFactorAttemptsKey(keyHash).PK,
        ':prefix': `${SECOND_FACTOR_PREFIX}_ATTEMPTS`,
      },
      ProjectionExpression: 'PK, SK',
    });
    await Promise.all(
      items.map((item) =>
        this.table.doc.send(
          new DeleteCommand({ TableName: this.table.name, Key: { PK: item.PK, SK: item.SK } }),
        ),
      ),
    );
  }
}
