import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ReservedAttempt, SignInAttempts } from '../../domain/identity/ports';
import { applied, isConditionFailure, type Table } from '../table/table';
import { signInAttemptsKey } from './keys';

/** Tries of one reservation: each lost race means another attempt of the same client counted first. */
const RESERVE_TRIES = 5;

/**
 * Sign-in attempts counted per client over a fixed window. Every attempt is counted atomically
 * before its key is evaluated (an ADD in one conditional update that returns the new count), so
 * that N attempts in parallel count N; nothing is read first and nothing is written blindly.
 */
export class SignInAttemptRepository implements SignInAttempts {
  constructor(private readonly table: Table) {}

  /**
   * Counts one attempt: added to the open window, or opening a new one when the last is over (or
   * there was none). Both writes are conditional, so of two attempts racing to open a window one
   * opens it and the other is added to it.
   */
  async reserve(clientHash: string, nowSeconds: number, windowSeconds: number): Promise<ReservedAttempt> {
    for (let attempt = 0; attempt < RESERVE_TRIES; attempt++) {
      try {
        const { Attributes } = await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: signInAttemptsKey(clientHash),
            UpdateExpression: 'ADD attempts :one',
            ConditionExpression: 'windowEndsAt > :now',
            ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return {
          earlier: (Attributes?.attempts as number) - 1,
          earlierWrong: (Attributes?.wrongKeys as number | undefined) ?? 0,
          windowEndsAt: Attributes?.windowEndsAt as number,
        };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const windowEndsAt = nowSeconds + windowSeconds;
      try {
        await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: signInAttemptsKey(clientHash),
            UpdateExpression:
              'SET attempts = :one, wrongKeys = :zero, windowEndsAt = :ends, expiresAt = :ends, entity = :entity',
            ConditionExpression: 'attribute_not_exists(PK) OR windowEndsAt <= :now',
            ExpressionAttributeValues: {
              ':one': 1,
              ':zero': 0,
              ':ends': windowEndsAt,
              ':now': nowSeconds,
              ':entity': 'SignInAttempts',
            },
          }),
        );
        return { earlier: 0, earlierWrong: 0, windowEndsAt };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error('Tentative de connexion non comptée après plusieurs essais');
  }

  /**
   * Notes that the key of a reserved attempt was wrong, in the window it was counted in (the
   * attempt itself stays counted). A window over since then has nothing to note it in.
   */
  async markWrong(clientHash: string, reserved: ReservedAttempt): Promise<void> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: signInAttemptsKey(clientHash),
          UpdateExpression: 'ADD wrongKeys :one',
          ConditionExpression: 'windowEndsAt = :window',
          ExpressionAttributeValues: { ':one': 1, ':window': reserved.windowEndsAt },
        }),
      ),
    );
  }

  /**
   * Gives back the attempt of a right key, in the window it was counted in: a success does not
   * count against the client, but the wrong keys before it still do until their window ends.
   */
  async release(clientHash: string, reserved: ReservedAttempt): Promise<void> {
    // The window it counted in is over: there is nothing left to give back.
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: signInAttemptsKey(clientHash),
          UpdateExpression: 'ADD attempts :minusOne',
          ConditionExpression: 'windowEndsAt = :window AND attempts > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':window': reserved.windowEndsAt, ':zero': 0 },
        }),
      ),
    );
  }
}
