import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CountedAttempt, SignInAttempts } from '../../domain/identity/ports';
import type { Table } from '../table/table';
import { isConditionFailure } from '../table/table-errors';
import { signInAttemptsKey } from './keys';

export type { CountedAttempt };

/** Tries of one count: each lost race means another attempt of the same client opened the window first. */
const COUNT_TRIES = 5;

/** A number attribute of an item as DynamoDB returns it raw (a failed condition's old item). */
const rawNumber = (item: Record<string, { N?: string }> | undefined, name: string): number | undefined => {
  const value = item?.[name]?.N;
  return value === undefined ? undefined : Number(value);
};

/**
 * Attempts counted per client over a fixed window, one item a client: `wrongKeys` counted in the
 * window ending at `windowEndsAt` (`attempts`, the same count, stays for windows opened by the
 * earlier reservations, which held attempts in flight). Every count is one conditional write, so
 * no more than `limit` are ever counted in a window, however many arrive in parallel.
 */
export class SignInAttemptRepository implements SignInAttempts {
  constructor(private readonly table: Table) {}

  /**
   * Counts one attempt in the open window if it counts fewer than `limit`, opening the window if
   * there was none: one conditional write. A window over is opened anew by a second conditional
   * write, so of two attempts racing to open it one opens it and the other is counted in it.
   */
  async count(
    clientHash: string,
    nowSeconds: number,
    windowSeconds: number,
    limit: number,
  ): Promise<CountedAttempt> {
    const windowEndsAt = nowSeconds + windowSeconds;
    for (let attempt = 0; attempt < COUNT_TRIES; attempt++) {
      let held: Record<string, { N?: string }> | undefined;
      try {
        const { Attributes } = await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: signInAttemptsKey(clientHash),
            UpdateExpression:
              'SET windowEndsAt = if_not_exists(windowEndsAt, :ends), expiresAt = if_not_exists(expiresAt, :ends), ' +
              'entity = :entity ADD attempts :one, wrongKeys :one',
            ConditionExpression: 'attribute_not_exists(PK) OR (windowEndsAt > :now AND wrongKeys < :limit)',
            ExpressionAttributeValues: {
              ':one': 1,
              ':ends': windowEndsAt,
              ':now': nowSeconds,
              ':limit': limit,
              ':entity': 'SignInAttempts',
            },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { outcome: 'counted', earlier: ((Attributes?.wrongKeys as number | undefined) ?? 1) - 1 };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        held = (error as { Item?: Record<string, { N?: string }> }).Item;
      }
      const heldUntil = rawNumber(held, 'windowEndsAt');
      // An open window that counts `limit` already: locked until it ends.
      if (heldUntil !== undefined && heldUntil > nowSeconds) return { outcome: 'locked' };
      try {
        await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: signInAttemptsKey(clientHash),
            UpdateExpression:
              'SET attempts = :one, wrongKeys = :one, windowEndsAt = :ends, expiresAt = :ends, entity = :entity',
            ConditionExpression: 'attribute_not_exists(PK) OR windowEndsAt <= :now',
            ExpressionAttributeValues: {
              ':one': 1,
              ':ends': windowEndsAt,
              ':now': nowSeconds,
              ':entity': 'SignInAttempts',
            },
          }),
        );
        return { outcome: 'counted', earlier: 0 };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error('Tentative de connexion non comptée après plusieurs essais');
  }

  /**
   * The count of the client's open window, read strongly consistent: it is then ordered with the
   * conditional counts of attempts sent beside it (the lock's decision for a right key).
   */
  async counted(clientHash: string, nowSeconds: number): Promise<number> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: signInAttemptsKey(clientHash),
        ConsistentRead: true,
        ProjectionExpression: 'wrongKeys, windowEndsAt',
      }),
    );
    const endsAt = Item?.windowEndsAt as number | undefined;
    return endsAt !== undefined && endsAt > nowSeconds ? ((Item?.wrongKeys as number | undefined) ?? 0) : 0;
  }
}
