import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import { signInAttemptsKey } from './keys';
import { isConditionFailure, type Table } from './table';

/** Wrong licence keys counted per client over a fixed window. */
export interface SignInAttempts {
  failures: number;
  /** End of the current window, epoch seconds. */
  windowEndsAt: number;
}

export class SignInAttemptRepository {
  constructor(private readonly table: Table) {}

  /** The client's failures in the current window (zero once the window is over). */
  async get(clientHash: string, nowSeconds: number): Promise<SignInAttempts> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: signInAttemptsKey(clientHash),
        ConsistentRead: true,
      }),
    );
    if (!Item || (Item.windowEndsAt as number) <= nowSeconds) return { failures: 0, windowEndsAt: 0 };
    return { failures: Item.failures as number, windowEndsAt: Item.windowEndsAt as number };
  }

  /**
   * Counts one failure atomically: added to the open window, or starting a new one when the last
   * window is over (the conditional write makes concurrent failures all count).
   */
  async recordFailure(clientHash: string, nowSeconds: number, windowSeconds: number): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: signInAttemptsKey(clientHash),
          UpdateExpression: 'ADD failures :one',
          ConditionExpression: 'windowEndsAt > :now',
          ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const windowEndsAt = nowSeconds + windowSeconds;
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...signInAttemptsKey(clientHash),
            entity: 'SignInAttempts',
            failures: 1,
            windowEndsAt,
            expiresAt: windowEndsAt,
          },
        }),
      );
    }
  }

  /** Forgets the client's failures after a successful sign-in. */
  async reset(clientHash: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.name, Key: signInAttemptsKey(clientHash) }),
    );
  }
}
