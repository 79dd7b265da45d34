import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { workflowHealthKey } from '../../../functions/data/directory/keys';
import { WorkflowRepository } from '../../../functions/data/directory/workflows';
import { migratePausedList } from '../../../functions/migrations/paused-list-migration';
import { createTestApp, disposeTestApp, type TestApp } from '../../support/app';
import { workflowRecord } from '../../support/records';

/**
 * Pauses recorded before the paused list existed (a health item with `pausedAt` and no index key)
 * get their entry from `npm run migrate`; a workflow without a pause gets none, and a second run
 * finds nothing to do.
 */
describe('the paused list given to the pauses recorded before it', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  /** A pause as the former code wrote it: time and reason on the health item, no list entry. */
  const formerPause = (workflowId: string, at: string) =>
    app.table.doc.send(
      new UpdateCommand({
        TableName: app.table.name,
        Key: workflowHealthKey(workflowId),
        UpdateExpression: 'SET workflowId = :id, pausedAt = :at, pauseReason = :reason',
        ExpressionAttributeValues: { ':id': workflowId, ':at': at, ':reason': 'Suspendue après 5 échecs' },
      }),
    );

  it('lists each former pause once, the latest first, and nothing else', async () => {
    const repository = new WorkflowRepository(app.table);
    const workflows = Array.from({ length: 5 }, () => workflowRecord({ cronEnabled: false }));
    for (const workflow of workflows) await repository.create(workflow);
    const [first, second] = workflows as [(typeof workflows)[0], (typeof workflows)[0]];
    await formerPause(first.id, '2026-11-01T08:00:00.000Z');
    await formerPause(second.id, '2026-11-02T08:00:00.000Z');
    const before = await repository.find({ limit: 50, health: 'paused' });

    const run = await migratePausedList(app.table, 2);
    const after = await repository.find({ limit: 50, health: 'paused' });

    expect(before.items).toEqual([]);
    expect(run).toEqual({ found: 2, indexed: 2 });
    expect(after.items.map((workflow) => workflow.id)).toEqual([second.id, first.id]);
    expect(await migratePausedList(app.table)).toEqual({ found: 0, indexed: 0 });
  });
});
