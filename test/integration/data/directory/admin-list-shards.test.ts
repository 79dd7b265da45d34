import { randomUUID } from 'node:crypto';

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  licenseBillingKey,
  PURGE_DUE_PARTITION,
  purgeDueSortKey,
} from '../../../../functions/data/billing/keys';
import { SubscriptionRepository } from '../../../../functions/data/billing/subscriptions';
import { queryAll } from '../../../../functions/data/table/query-all';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';

/**
 * The licences due for purge, sharded in GSI1: new items go to `<LIST>#<0..3>`, items written
 * before stay under the former single key, and the list reads both, in one order, each item once.
 * (The lawyers, folders and audit trail are one partition each: migrations/admin-lists-migration.)
 */
describe('the purge list over its shards', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  /** An item as written before issue 13: its list's single GSI1 partition. */
  const putBefore = (item: Record<string, unknown>) =>
    app.table.doc.send(new PutCommand({ TableName: app.table.name, Item: item }));

  /** How many items a GSI1 partition holds. */
  const heldBy = async (partition: string) =>
    (
      await queryAll(app.table, {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
      })
    ).length;

  it('reads the licences due for purge of both shapes, oldest first, up to now and the batch size', async () => {
    const subscriptions = new SubscriptionRepository(app.table);
    const now = new Date(Date.UTC(2026, 11, 24, 12));
    const day = (offset: number) => new Date(now.getTime() + offset * 24 * 60 * 60 * 1000);
    const licences = [-9, -7, -5, -4, -2, -1, 3].map((offset, index) => ({
      keyHash: randomUUID(),
      purgeAfter: day(offset),
      before: index % 3 === 0,
    }));
    for (const { keyHash, purgeAfter, before } of licences) {
      const canceledAt = new Date(purgeAfter.getTime() - 30 * 24 * 60 * 60 * 1000);
      await putBefore({
        ...licenseBillingKey(keyHash),
        keyHash,
        ...(before
          ? {
              canceledAt: canceledAt.toISOString(),
              purgeAfter: purgeAfter.toISOString(),
              GSI1PK: PURGE_DUE_PARTITION,
              GSI1SK: purgeDueSortKey(purgeAfter, keyHash),
            }
          : {}),
      });
      if (!before) await subscriptions.recordCancellation(keyHash, canceledAt, purgeAfter);
    }
    const due = licences.filter((licence) => licence.purgeAfter <= now).map((licence) => licence.keyHash);

    expect((await subscriptions.purgeDue(now)).map((licence) => licence.keyHash)).toEqual(due);
    expect((await subscriptions.purgeDue(now, 4)).map((licence) => licence.keyHash)).toEqual(due.slice(0, 4));
    expect(await heldBy(PURGE_DUE_PARTITION)).toBe(3);
  });
});
