import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SecondFactorAttempts } from '../../domain/second-factor/ports';
import { applied, type Table } from '../table/table';
import { secondFactorAttemptsKey } from './keys';

/**
 * Second-factor attempts counted per licence over a fixed window. An attempt is reserved (counted)
 * before its code is even looked at, with one conditional write: concurrent guesses all count and
 * none slips past the limit; a right code then forgets the count.
 */
export class SecondFactorAttemptRepository implements SecondFactorAttempts {
  constructor(private readonly table: Table) {}

  /**
   * Counts one attempt; false when the licence already used up its attempts in the open window
   * (nothing is counted then).
   */
  async reserve(
    keyHash: string,
    nowSeconds: number,
    maxAttempts: number,
    windowSeconds: number,
  ): Promise<boolean> {
    for (let round = 0; round < 3; round += 1) {
      const counted = await applied(
        this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: secondFactorAttemptsKey(keyHash),
            UpdateExpression: 'ADD attempts :one',
            ConditionExpression: 'windowEndsAt > :now AND attempts < :max',
            ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds, ':max': maxAttempts },
          }),
        ),
      );
      if (counted) return true;
      // No open window, or a full one: a new window may start only where none is open.
      const windowEndsAt = nowSeconds + windowSeconds;
      const opened = await applied(
        this.table.doc.send(
          new PutCommand({
            TableName: this.table.name,
            Item: {
              ...secondFactorAttemptsKey(keyHash),
              entity: 'SecondFactorAttempts',
              attempts: 1,
              windowEndsAt,
              expiresAt: windowEndsAt,
            },
            ConditionExpression: 'attribute_not_exists(PK) OR windowEndsAt <= :now',
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        ),
      );
      if (opened) return true;
      // The window is open: either it is full (refused) or another request just opened it (retry).
      const full = await this.isFull(keyHash, nowSeconds, maxAttempts);
      if (full) return false;
    }
    return false;
  }

  /** Forgets the licence's attempts after a right code. */
  async reset(keyHash: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.name, Key: secondFactorAttemptsKey(keyHash) }),
    );
  }

  private async isFull(keyHash: string, nowSeconds: number, maxAttempts: number): Promise<boolean> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: secondFactorAttemptsKey(keyHash),
        ConsistentRead: true,
      }),
    );
    return Boolean(
      Item && (Item.windowEndsAt as number) > nowSeconds && (Item.attempts as number) >= maxAttempts,
    );
  }
}
