import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventClaim, StripeEvents } from '../../domain/billing/ports';
import type { Table } from '../table/table';
import { applied, isConditionFailure } from '../table/table-errors';
import { stripeEventKey } from './keys';

/** How long a processed event id is remembered: far beyond Stripe's 3 days of retries. */
export const STRIPE_EVENT_RETENTION_DAYS = 30;

/**
 * Which Stripe events have been applied: one item per event id, claimed with a conditional put
 * before the event is applied and marked applied after. A claim is a lease: if the worker that
 * holds it dies, the event can be claimed again once the lease is over (Stripe will redeliver it).
 */
export class StripeEventRepository implements StripeEvents {
  constructor(private readonly table: Table) {}

  async claim(
    event: { id: string; type: string },
    token: string,
    now: Date,
    leaseMs: number,
  ): Promise<EventClaim> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...stripeEventKey(event.id),
            entity: 'StripeEvent',
            eventId: event.id,
            eventType: event.type,
            status: 'processing',
            claimToken: token,
            claimedUntil: now.getTime() + leaseMs,
            receivedAt: now.toISOString(),
            expiresAt: Math.floor(now.getTime() / 1000) + STRIPE_EVENT_RETENTION_DAYS * 24 * 3600,
          },
          ConditionExpression: 'attribute_not_exists(PK) OR (#status = :processing AND claimedUntil < :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':processing': 'processing', ':now': now.getTime() },
        }),
      );
      return { outcome: 'claimed', token };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: stripeEventKey(event.id), ConsistentRead: true }),
    );
    return Item?.status === 'applied' ? { outcome: 'applied' } : { outcome: 'in_progress' };
  }

  /** Records the event as applied; a claim lost to another worker in the meantime changes nothing. */
  async markApplied(eventId: string, token: string, result: string, now: Date): Promise<void> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: stripeEventKey(eventId),
          UpdateExpression:
            'SET #status = :applied, appliedAt = :now, #result = :result REMOVE claimToken, claimedUntil',
          ConditionExpression: 'claimToken = :token',
          ExpressionAttributeNames: { '#status': 'status', '#result': 'result' },
          ExpressionAttributeValues: {
            ':applied': 'applied',
            ':now': now.toISOString(),
            ':result': result,
            ':token': token,
          },
        }),
      ),
    );
  }

  /** Gives a claim up (the event failed and Stripe will redeliver it). */
  async release(eventId: string, token: string): Promise<void> {
    await applied(
      this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: stripeEventKey(eventId),
          ConditionExpression: 'claimToken = :token',
          ExpressionAttributeValues: { ':token': token },
        }),
      ),
    );
  }

  /** Whether an event has been applied (tests and support). */
  async isApplied(eventId: string): Promise<boolean> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: stripeEventKey(eventId), ConsistentRead: true }),
    );
    return Item?.status === 'applied';
  }
}
