import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createdSortKey, WORKFLOWS_PARTITION, workflowKey } from '../../functions/data/keys';
import { InvalidCursorError } from '../../functions/data/page-cursor';
import { WorkflowRepository } from '../../functions/data/workflows';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';
import { minutesAfterOrigin, workflowRecord } from '../support/records';

/**
 * The all-workflows list sharded in GSI1 (issue 13: no write path on a single partition key): new
 * workflows go to `WORKFLOWS#<0..15>`, items written before stay under `WORKFLOWS` until their next
 * write, and the admin's pages merge both shapes, newest first, each workflow once.
 */
describe('all-workflows list over its shards', () => {
  let app: TestApp;
  let workflows: WorkflowRepository;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    workflows = new WorkflowRepository(app.table);
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('pages through new and older-shape workflows newest first, each once, and moves an edited one to its shard', async () => {
    const created = Array.from({ length: 23 }, (_, index) =>
      workflowRecord({ createdAt: minutesAfterOrigin(index) }),
    );
    for (const [index, record] of created.entries()) {
      if (index % 3 === 0) {
        // Written before issue 13: the one list partition.
        const sortKey = createdSortKey(record.createdAt, record.id);
        await app.table.doc.send(
          new PutCommand({
            TableName: app.table.name,
            Item: {
              ...workflowKey(record.id),
              entity: 'Workflow',
              GSI1PK: WORKFLOWS_PARTITION,
              GSI1SK: sortKey,
              GSI2PK: `OWNER#${record.lawyerEmail}`,
              GSI2SK: sortKey,
              ...record,
            },
          }),
        );
      } else {
        await workflows.create(record);
      }
    }
    const partitions = async () => {
      const { Items = [] } = await app.table.doc.send(
        new QueryCommand({
          TableName: app.table.name,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': WORKFLOWS_PARTITION },
        }),
      );
      return Items.length;
    };
    expect(await partitions()).toBe(8);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await workflows.page(4, cursor);
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...created].reverse().map((record) => record.id));

    const legacy = created[0];
    if (!legacy) throw new Error('pas de workflow');
    await workflows.update(legacy.id, { name: 'Renommée' }, minutesAfterOrigin(60));
    expect(await partitions()).toBe(7);
    expect((await workflows.page(100)).items.map((item) => item.id)).toHaveLength(23);
  });

  it('refuses a cursor that is not a position in the list', async () => {
    const forged = Buffer.from(JSON.stringify({ after: 'x', GSI1PK: 'OWNER#x' })).toString('base64url');
    await expect(workflows.page(4, forged)).rejects.toBeInstanceOf(InvalidCursorError);
  });
});
