import { randomUUID } from 'node:crypto';

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  licenseBillingKey,
  PURGE_DUE_PARTITION,
  purgeDueSortKey,
} from '../../../../functions/data/billing/keys';
import { SubscriptionRepository } from '../../../../functions/data/billing/subscriptions';
import { AuditRepository } from '../../../../functions/data/directory/audit';
import { FolderRepository } from '../../../../functions/data/directory/folders';
import {
  AUDIT_INDEX_PARTITION,
  auditEntryKey,
  FOLDERS_PARTITION,
  folderKey,
  LAWYERS_PARTITION,
  lawyerKey,
} from '../../../../functions/data/directory/keys';
import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { createdSortKey } from '../../../../functions/data/table/keys';
import { queryAll } from '../../../../functions/data/table/query-all';
import type { Page } from '../../../../functions/domain/core/ports';
import type { AuditRecord } from '../../../../functions/domain/directory/ports';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { folderRecord, lawyerRecord, minutesAfterOrigin } from '../../../support/records';

/**
 * The lists an admin's action or a billing event writes, sharded in GSI1 (issue 13: no write path
 * on a single partition key): new items go to `<LIST>#<0..3>`, items written before stay under the
 * former single key, and each list reads both, in one order, each item once.
 */
describe('admin lists over their shards', () => {
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

  /** Every page of a list, `limit` at a time, each no longer than `limit`. */
  async function allPages<T>(page: (cursor?: string) => Promise<Page<T>>, limit: number) {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const next = await page(cursor);
      expect(next.items.length).toBeLessThanOrEqual(limit);
      items.push(...next.items);
      cursor = next.nextCursor ?? undefined;
    } while (cursor);
    return items;
  }

  /**
   * Writes `records` in both shapes: one in three as before issue 13 (the list's single key
   * `partition`, sorted by creation), the others through the repository.
   */
  async function createBothShapes<T extends { id: string; createdAt: string }>(
    records: readonly T[],
    before: { key: (id: string) => { PK: string; SK: string }; entity: string; partition: string },
    create: (record: T) => Promise<void>,
  ) {
    for (const [index, record] of records.entries()) {
      if (index % 3 === 0)
        await putBefore({
          ...before.key(record.id),
          entity: before.entity,
          GSI1PK: before.partition,
          GSI1SK: createdSortKey(record.createdAt, record.id),
          ...record,
        });
      else await create(record);
    }
  }

  it('lists lawyers of both shapes newest first, and moves an older one to a shard when saved', async () => {
    const lawyers = new LawyerRepository(app.table);
    const created = Array.from({ length: 11 }, (_, index) =>
      lawyerRecord({ createdAt: minutesAfterOrigin(index) }),
    );
    await createBothShapes(
      created,
      { key: lawyerKey, entity: 'Lawyer', partition: LAWYERS_PARTITION },
      (record) => lawyers.create(record),
    );
    expect(await heldBy(LAWYERS_PARTITION)).toBe(4);

    const listed = await allPages((cursor) => lawyers.page(3, cursor), 3);

    expect(listed.map((lawyer) => lawyer.id)).toEqual([...created].reverse().map((record) => record.id));
    const older = created[0];
    if (!older) throw new Error('pas d’avocat');
    await lawyers.update(older, { ...older, firstName: 'Claire', updatedAt: minutesAfterOrigin(60) });
    expect(await heldBy(LAWYERS_PARTITION)).toBe(3);
    expect((await lawyers.page(100)).items).toHaveLength(11);
  });

  it('lists folders of both shapes newest first', async () => {
    const folders = new FolderRepository(app.table);
    const created = Array.from({ length: 8 }, (_, index) =>
      folderRecord({ createdAt: minutesAfterOrigin(index) }),
    );
    await createBothShapes(
      created,
      { key: folderKey, entity: 'Folder', partition: FOLDERS_PARTITION },
      (record) => folders.create(record),
    );

    const listed = await allPages((cursor) => folders.page(2, cursor), 2);

    expect(listed.map((folder) => folder.id)).toEqual([...created].reverse().map((record) => record.id));
    expect(await heldBy(FOLDERS_PARTITION)).toBe(3);
  });

  it('lists the audit trail of both shapes newest first across months', async () => {
    const trail = new AuditRepository(app.table);
    // Every 10 days from late October: entries of three months, in both shapes.
    const entries: AuditRecord[] = Array.from({ length: 9 }, (_, index) => ({
      id: randomUUID(),
      at: new Date(Date.UTC(2026, 9, 20) + index * 10 * 24 * 60 * 60 * 1000).toISOString(),
      actorEmail: 'associe@cabinet.fr',
      action: 'folder.create',
      target: `folder:${randomUUID()}`,
      targetLabel: 'Dupont',
    }));
    for (const [index, entry] of entries.entries()) {
      const key = auditEntryKey(entry);
      if (index % 2 === 0)
        await putBefore({
          ...key,
          entity: 'AuditEntry',
          GSI1PK: AUDIT_INDEX_PARTITION,
          GSI1SK: key.SK,
          ...entry,
        });
      else await trail.record(entry);
    }

    const listed = await allPages(async (cursor) => {
      const { entries: items, nextCursor } = await trail.page(2, cursor);
      return { items, nextCursor };
    }, 2);

    expect(listed).toEqual([...entries].reverse());
    expect(await heldBy(AUDIT_INDEX_PARTITION)).toBe(5);
  });

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
