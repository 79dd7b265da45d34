import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';

import { RETENTION_DAYS } from '../../../shared/constants';
import type {
  BillingEmail,
  CheckoutLink,
  CheckoutRecord,
  LicenseBilling,
  Subscriptions,
} from '../../domain/billing/ports';
import type { LicenseRecord } from '../../domain/identity/ports';
import { normaliseLicenseEmail } from '../identity/keys';
import { putLicenseItem } from '../identity/licenses';
import { listPartitions } from '../table/keys';
import { readShardedList, type ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import {
  billingEmailPartition,
  checkoutKey,
  licenseBillingKey,
  PURGE_DUE_PARTITION,
  purgeDueBound,
  purgeDuePartition,
  purgeDueSortKey,
  subscriptionKey,
  subscriptionLockKey,
} from './keys';

/** The licences due for purge in GSI1, by purge date, over the list's shards. */
const PURGE_DUE_LIST: ShardedList = {
  name: PURGE_DUE_PARTITION,
  index: 'GSI1',
  partitions: listPartitions(PURGE_DUE_PARTITION),
};

/**
 * The billing side of a licence, apart from the licence record: which licence a subscription pays
 * for, a licence's subscription and cancellation, the checkout that issued it, and a lease per
 * subscription. The first three are written in the transaction that creates the licence.
 */

const emailTarget = (email: BillingEmail) => {
  switch (email.kind) {
    case 'license-key':
      return { Key: checkoutKey(email.checkoutSessionId), sent: 'emailSentAt', claim: 'emailClaimedUntil' };
    case 'cancellation-scheduled':
      // One confirmation per end-of-access date: a firm that reactivates and cancels again in a
      // later period is told its new date.
      return {
        Key: licenseBillingKey(email.keyHash),
        sent: `cancellationScheduledEmailSentAt#${email.accessEndsAt}`,
        claim: `cancellationScheduledEmailClaimedUntil#${email.accessEndsAt}`,
      };
    case 'cancellation':
      return {
        Key: licenseBillingKey(email.keyHash),
        sent: 'cancellationEmailSentAt',
        claim: 'cancellationEmailClaimedUntil',
      };
  }
};

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const addYears = (date: Date, years: number) => {
  const later = new Date(date);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
};

const text = (value: unknown) => (typeof value === 'string' ? value : null);

function toLicenseBilling(item: Record<string, unknown>): LicenseBilling {
  return {
    keyHash: item.keyHash as string,
    subscriptionId: item.subscriptionId as string,
    customerId: item.customerId as string,
    billingEmail: text(item.billingEmail),
    createdAt: item.createdAt as string,
    canceledAt: text(item.canceledAt),
    purgeAfter: text(item.purgeAfter),
    cancellationEmailSentAt: text(item.cancellationEmailSentAt),
  };
}

export class SubscriptionRepository implements Subscriptions {
  constructor(private readonly table: Table) {}

  /**
   * Creates a paid checkout's licence with its links to the checkout and the subscription, in one
   * transaction. False when any of them exists already: the checkout issued its licence before
   * (a concurrent twin), or the generated key collided with an existing licence.
   */
  async issueLicense(license: LicenseRecord, link: CheckoutLink): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: putLicenseItem(this.table, license) }, ...this.linkItems(link)],
        }),
      ),
    );
  }

  /**
   * The puts that link a new licence to its checkout and subscription, for the transaction that
   * creates the licence. Each refuses to overwrite: a checkout issues one licence, ever.
   */
  private linkItems(link: CheckoutLink): NonNullable<TransactWriteCommandInput['TransactItems']> {
    const createdAt = link.now.toISOString();
    const ids = {
      keyHash: link.keyHash,
      subscriptionId: link.subscriptionId,
      customerId: link.customerId,
      checkoutSessionId: link.checkoutSessionId,
      createdAt,
    };
    const put = (Key: Record<string, string>, item: Record<string, unknown>) => ({
      Put: {
        TableName: this.table.name,
        Item: { ...Key, ...item },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    return [
      put(checkoutKey(link.checkoutSessionId), {
        entity: 'Checkout',
        ...ids,
        email: link.email,
        // A billing record: kept 5 years (spec §9), then swept by the table's TTL.
        expiresAt: epochSeconds(addYears(link.now, RETENTION_DAYS.billingYears)),
      }),
      put(subscriptionKey(link.subscriptionId), { entity: 'Subscription', ...ids }),
      put(licenseBillingKey(link.keyHash), {
        entity: 'LicenseBilling',
        ...ids,
        ...(link.email
          ? {
              billingEmail: normaliseLicenseEmail(link.email),
              GSI2PK: billingEmailPartition(link.email),
              GSI2SK: link.keyHash,
            }
          : {}),
      }),
    ];
  }

  async getCheckout(checkoutSessionId: string): Promise<CheckoutRecord | null> {
    const item = await this.get(checkoutKey(checkoutSessionId));
    if (!item) return null;
    return {
      checkoutSessionId: item.checkoutSessionId as string,
      keyHash: item.keyHash as string,
      subscriptionId: item.subscriptionId as string,
      customerId: item.customerId as string,
      email: text(item.email),
      createdAt: item.createdAt as string,
      emailSentAt: text(item.emailSentAt),
    };
  }

  /** The licence a subscription pays for, or null while its checkout has not been applied. */
  async licenseOfSubscription(subscriptionId: string): Promise<string | null> {
    const item = await this.get(subscriptionKey(subscriptionId));
    return item ? (item.keyHash as string) : null;
  }

  /** The subscription of a licence, or null (an admin's licence, one issued by hand). */
  async billingOfLicense(keyHash: string): Promise<LicenseBilling | null> {
    const item = await this.get(licenseBillingKey(keyHash));
    return item ? toLicenseBilling(item) : null;
  }

  /** The billing records whose billing address is this e-mail (GSI2), in no particular order. */
  async billingOfEmail(email: string): Promise<LicenseBilling[]> {
    const { Items = [] } = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': billingEmailPartition(email) },
      }),
    );
    return Items.map(toLicenseBilling);
  }

  /**
   * Records that a licence's subscription ended, once: the first cancellation date and purge date
   * stay. The purge date is also indexed (GSI1, shards `LAWYER_PURGE_DUE#<0..3>`, sorted by date)
   * for the purge job. Returns the billing record as it now stands, or null if the licence has none.
   */
  async recordCancellation(
    keyHash: string,
    canceledAt: Date,
    purgeAfter: Date,
  ): Promise<LicenseBilling | null> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: licenseBillingKey(keyHash),
          UpdateExpression:
            'SET canceledAt = :canceledAt, purgeAfter = :purgeAfter, GSI1PK = :gpk, GSI1SK = :gsk',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(canceledAt)',
          ExpressionAttributeValues: {
            ':canceledAt': canceledAt.toISOString(),
            ':purgeAfter': purgeAfter.toISOString(),
            ':gpk': purgeDuePartition(keyHash),
            ':gsk': purgeDueSortKey(purgeAfter, keyHash),
          },
        }),
      ),
    );
    return this.billingOfLicense(keyHash);
  }

  /** Licences whose purge date has come (for the purge job), oldest first. */
  async purgeDue(
    now: Date,
    limit = 100,
  ): Promise<{ keyHash: string; purgeAfter: string; canceledAt: string }[]> {
    const { items } = await readShardedList(this.table, PURGE_DUE_LIST, {
      order: 'oldest first',
      limit,
      bound: { operator: '<=', value: purgeDueBound(now) },
    });
    return items.map((item) => ({
      keyHash: item.keyHash as string,
      purgeAfter: item.purgeAfter as string,
      canceledAt: item.canceledAt as string,
    }));
  }

  /**
   * Records that the lawyer's data of a licence was purged: it leaves the purge index, and the
   * billing record itself is now kept for the legal 5 years from the cancellation (as the purge
   * index read it), then swept by the table's TTL (spec §9).
   */
  async markPurged(keyHash: string, canceledAt: Date, now: Date): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: licenseBillingKey(keyHash),
        UpdateExpression: 'SET purgedAt = :now, expiresAt = :expiresAt REMOVE GSI1PK, GSI1SK',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':expiresAt': epochSeconds(addYears(canceledAt, RETENTION_DAYS.billingYears)),
        },
      }),
    );
  }

  /**
   * Forgets an ended subscription whose licence is active again (reactivated by support): out of
   * the purge index, and a later cancellation is recorded and confirmed afresh.
   */
  async clearCancellation(keyHash: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: licenseBillingKey(keyHash),
        UpdateExpression:
          'REMOVE canceledAt, purgeAfter, cancellationEmailSentAt, cancellationEmailClaimedUntil, GSI1PK, GSI1SK',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  }

  /**
   * Claims the sending of an e-mail: true for exactly one caller while it is neither sent nor
   * claimed by someone else (a claim lapses after `leaseMs`, so a crashed sender is replaced).
   */
  async claimEmail(email: BillingEmail, now: Date, leaseMs: number): Promise<boolean> {
    const target = emailTarget(email);
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: target.Key,
          UpdateExpression: 'SET #claim = :until',
          ConditionExpression:
            'attribute_exists(PK) AND attribute_not_exists(#sent) AND (attribute_not_exists(#claim) OR #claim < :now)',
          ExpressionAttributeNames: { '#claim': target.claim, '#sent': target.sent },
          ExpressionAttributeValues: { ':until': now.getTime() + leaseMs, ':now': now.getTime() },
        }),
      ),
    );
  }

  async markEmailSent(email: BillingEmail, now: Date): Promise<void> {
    const target = emailTarget(email);
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: target.Key,
        UpdateExpression: 'SET #sent = :now REMOVE #claim',
        ExpressionAttributeNames: { '#claim': target.claim, '#sent': target.sent },
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
  }

  /** Gives an e-mail claim up after a failed send, so that the next delivery of the event retries. */
  async releaseEmailClaim(email: BillingEmail): Promise<void> {
    const target = emailTarget(email);
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: target.Key,
        UpdateExpression: 'REMOVE #claim',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#claim': target.claim },
      }),
    );
  }

  /** Takes the lease on a subscription; false while someone else holds an unexpired one. */
  async acquireLock(subscriptionId: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...subscriptionLockKey(subscriptionId),
            entity: 'SubscriptionLock',
            owner,
            lockedUntil: now.getTime() + leaseMs,
            expiresAt: epochSeconds(now) + 24 * 3600,
          },
          ConditionExpression: 'attribute_not_exists(PK) OR lockedUntil < :now',
          ExpressionAttributeValues: { ':now': now.getTime() },
        }),
      ),
    );
  }

  async releaseLock(subscriptionId: string, owner: string): Promise<void> {
    await applied(
      this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: subscriptionLockKey(subscriptionId),
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
        }),
      ),
    );
  }

  private async get(Key: Record<string, string>) {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key, ConsistentRead: true }),
    );
    return Item ?? null;
  }
}
