import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Reservation, ReservedAttempt, SignInAttempts } from '../../domain/identity/ports';
import { applied, isConditionFailure, type Table } from '../table/table';
import { signInAttemptsKey } from './keys';

export type { Reservation, ReservedAttempt };

/** Tries of one reservation: each lost race means another attempt of the same client counted first. */
const RESERVE_TRIES = 5;

/** A number attribute of an item as DynamoDB returns it raw (a failed condition's old item). */
const rawNumber = (item: Record<string, { N?: string }> | undefined, name: string): number | undefined => {
  const value = item?.[name]?.N;
  return value === undefined ? undefined : Number(value);
};

/**
 * Sign-in attempts counted per client over a fixed window. The window allows `limit` attempts held
 * at once: an attempt holds one from before its key is evaluated until it is found right (given
 * back) or wrong (kept until the window ends). So no more than `limit` wrong keys are ever
 * evaluated in a window, however many arrive in parallel, and a right key is never refused for
 * the attempts still in flight: it waits for them (`busy`). One conditional write reserves.
 */
export class SignInAttemptRepository implements SignInAttempts {
  constructor(private readonly table: Table) {}

  /**
   * Reserves one attempt in the open window if it has one free, or opens a new window when the
   * last is over (or there was none). Both writes are conditional, so of two attempts racing to
   * open a window one opens it and the other is added to it.
   */
  async reserve(
    clientHash: string,
    nowSeconds: number,
    windowSeconds: number,
    limit: number,
    options: { readonly kept?: boolean } = {},
  ): Promise<Reservation> {
    // Kept: counted as spent at once (a request that is never given back, such as a portal link).
    const spent = options.kept ? 1 : 0;
    for (let attempt = 0; attempt < RESERVE_TRIES; attempt++) {
      let held: Record<string, { N?: string }> | undefined;
      try {
        const { Attributes } = await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: signInAttemptsKey(clientHash),
            UpdateExpression: 'ADD attempts :one, wrongKeys :spent',
            ConditionExpression: 'windowEndsAt > :now AND attempts < :limit',
            ExpressionAttributeValues: { ':one': 1, ':spent': spent, ':now': nowSeconds, ':limit': limit },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return {
          outcome: 'reserved',
          attempt: {
            earlierWrong: ((Attributes?.wrongKeys as number | undefined) ?? 0) - spent,
            windowEndsAt: Attributes?.windowEndsAt as number,
          },
        };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        held = (error as { Item?: Record<string, { N?: string }> }).Item;
      }
      const heldUntil = rawNumber(held, 'windowEndsAt');
      if (heldUntil !== undefined && heldUntil > nowSeconds) {
        // An open window with no attempt free: locked by its wrong keys, else held by attempts in flight.
        return (rawNumber(held, 'wrongKeys') ?? 0) >= limit ? { outcome: 'locked' } : { outcome: 'busy' };
      }
      const windowEndsAt = nowSeconds + windowSeconds;
      try {
        await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: signInAttemptsKey(clientHash),
            UpdateExpression:
              'SET attempts = :one, wrongKeys = :spent, windowEndsAt = :ends, expiresAt = :ends, entity = :entity',
            ConditionExpression: 'attribute_not_exists(PK) OR windowEndsAt <= :now',
            ExpressionAttributeValues: {
              ':one': 1,
              ':spent': spent,
              ':ends': windowEndsAt,
              ':now': nowSeconds,
              ':entity': 'SignInAttempts',
            },
          }),
        );
        return { outcome: 'reserved', attempt: { earlierWrong: 0, windowEndsAt } };
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
