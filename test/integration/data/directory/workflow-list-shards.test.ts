import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { InvalidCursorError } from '../../../../functions/domain/core/errors';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { minutesAfterOrigin, workflowRecord } from '../../../support/records';

/**
 * The all-workflows list sharded in GSI1 (issue 13: no write path on a single partition key):
 * workflows go to `WORKFLOWS#<0..15>`, and the admin's pages merge the shards, newest first, each
 * workflow once, joined with their schedule items' last and next run. Items of the single
 * `WORKFLOWS` partition of before are moved by the migration (workflow-migration.test.ts).
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

  it('pages through the workflows newest first, each once, with their schedule state', async () => {
    const created = Array.from({ length: 23 }, (_, index) =>
      workflowRecord({
        createdAt: minutesAfterOrigin(index),
        cronEnabled: index % 2 === 0,
        cronLastRun: index % 3 === 0 ? minutesAfterOrigin(30 + index) : null,
        cronNextRun: index % 2 === 0 ? minutesAfterOrigin(60 + index) : null,
      }),
    );
    for (const record of created) await workflows.create(record);

    const seen: WorkflowRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await workflows.find({ limit: 4, cursor });
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });

  it('refuses a cursor that is not a position in the list', async () => {
    const forged = Buffer.from(JSON.stringify({ after: 'x', GSI1PK: 'OWNER#x' })).toString('base64url');
    await expect(workflows.find({ limit: 4, cursor: forged })).rejects.toBeInstanceOf(InvalidCursorError);
  });
});
