import { randomUUID } from 'node:crypto';

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AuditRepository } from '../../../functions/data/directory/audit';
import { FolderRepository } from '../../../functions/data/directory/folders';
import {
  AUDIT_INDEX_PARTITION,
  auditEntryKey,
  FOLDERS_PARTITION,
  folderKey,
  LAWYERS_PARTITION,
  lawyerKey,
} from '../../../functions/data/directory/keys';
import { LawyerRepository } from '../../../functions/data/directory/lawyers';
import { shardOf } from '../../../functions/data/table/keys';
import type { Page } from '../../../functions/domain/core/ports';
import type { AuditRecord } from '../../../functions/domain/directory/ports';
import { migrateAdminLists } from '../../../functions/migrations/admin-lists-migration';
import { createTestApp, disposeTestApp, type TestApp } from '../../support/app';
import { folderRecord, lawyerRecord, minutesAfterOrigin } from '../../support/records';

/**
 * The lawyers, folders and audit trail were written over four GSI1 shards each; they are one
 * partition each now. Items still in a former shard are moved by `npm run migrate`, after which
 * every list shows every item once, newest first, from its one partition.
 */
describe('the admin lists moved to one partition each', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  /** Puts an item back in the shard the former code wrote it in. */
  const toFormerShard = (key: { PK: string; SK: string }, list: string, id: string) =>
    app.table.doc.send(
      new UpdateCommand({
        TableName: app.table.name,
        Key: key,
        UpdateExpression: 'SET GSI1PK = :shard',
        ExpressionAttributeValues: { ':shard': `${list}#${shardOf(id, 4)}` },
      }),
    );

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

  it('moves every lawyer, folder and audit entry of a former shard, once, and the lists show each once, newest first', async () => {
    const lawyers = new LawyerRepository(app.table);
    const folders = new FolderRepository(app.table);
    const trail = new AuditRepository(app.table);
    const createdLawyers = Array.from({ length: 7 }, (_, index) =>
      lawyerRecord({ createdAt: minutesAfterOrigin(index) }),
    );
    const createdFolders = Array.from({ length: 5 }, (_, index) =>
      folderRecord({ createdAt: minutesAfterOrigin(index) }),
    );
    const entries: AuditRecord[] = Array.from({ length: 6 }, (_, index) => ({
      id: randomUUID(),
      at: new Date(Date.UTC(2026, 9, 20) + index * 10 * 24 * 60 * 60 * 1000).toISOString(),
      actorEmail: 'associe@cabinet.fr',
      action: 'folder.create',
      target: `folder:${randomUUID()}`,
      targetLabel: 'Dupont',
    }));
    let former = 0;
    for (const [index, record] of createdLawyers.entries()) {
      await lawyers.create(record);
      if (index % 2 === 0) {
        await toFormerShard(lawyerKey(record.id), LAWYERS_PARTITION, record.id);
        former += 1;
      }
    }
    for (const [index, record] of createdFolders.entries()) {
      await folders.create(record);
      if (index % 2 === 1) {
        await toFormerShard(folderKey(record.id), FOLDERS_PARTITION, record.id);
        former += 1;
      }
    }
    for (const [index, entry] of entries.entries()) {
      await trail.record(entry);
      if (index % 3 === 0) {
        await toFormerShard(auditEntryKey(entry), AUDIT_INDEX_PARTITION, entry.id);
        former += 1;
      }
    }
    // Before the migration, the lists do not see what is still in a former shard.
    expect((await lawyers.page(100)).items).toHaveLength(3);

    expect(await migrateAdminLists(app.table)).toEqual({ read: former, moved: former });
    expect(await migrateAdminLists(app.table)).toEqual({ read: 0, moved: 0 });

    const newestFirst = <T extends { id: string }>(records: readonly T[]) =>
      [...records].reverse().map((record) => record.id);
    expect((await allPages((cursor) => lawyers.page(3, cursor), 3)).map((lawyer) => lawyer.id)).toEqual(
      newestFirst(createdLawyers),
    );
    expect((await allPages((cursor) => folders.page(2, cursor), 2)).map((folder) => folder.id)).toEqual(
      newestFirst(createdFolders),
    );
    const listed = await allPages(async (cursor) => {
      const { entries: items, nextCursor } = await trail.page(2, cursor);
      return { items, nextCursor };
    }, 2);
    expect(listed).toEqual([...entries].reverse());
  });
});
