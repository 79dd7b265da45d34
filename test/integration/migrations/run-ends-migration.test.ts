import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { workflowKey } from '../../../functions/data/directory/keys';
import { WorkflowRepository } from '../../../functions/data/directory/workflows';
import { DispatchStateRepository } from '../../../functions/data/scheduling/dispatch-state';
import { ExecutionRepository } from '../../../functions/data/scheduling/executions';
import { executionSortKey, runEndKey } from '../../../functions/data/scheduling/keys';
import { dispatchIdOf } from '../../../functions/domain/scheduling/due-slots';
import { migrateRunEnds } from '../../../functions/migrations/run-ends-migration';
import { MESSAGES } from '../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../support/app';
import { workflowRecord } from '../../support/records';

/**
 * Runs that ended before a run's end became its history entry (the call at its start, a
 * `DISPATCH#` marker beside it) are moved to their run's key by `npm run migrate`, so that a second
 * delivery of one still finds it before calling; the history shows each call once, and a second
 * run of the migration finds nothing to do.
 */
describe('runs ended in the former shape moved to their end’s key', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  const now = new Date('2026-11-28T10:00:00.000Z');
  const minutesAgo = (count: number, seconds = 0) =>
    new Date(now.getTime() - count * 60_000 + seconds * 1000).toISOString();

  /** A call as the former code recorded it, with the run's marker when no retry followed. */
  async function formerCall(workflowId: string, dueAt: string, startedAt: string, retry?: 'scheduled') {
    const id = randomUUID();
    const dispatchId = dispatchIdOf(workflowId, dueAt);
    const { PK } = workflowKey(workflowId);
    await app.table.doc.send(
      new PutCommand({
        TableName: app.table.name,
        Item: {
          PK,
          SK: executionSortKey(startedAt, id),
          entity: 'Execution',
          id,
          workflowId,
          dispatchId,
          trigger: 'schedule',
          startedAt,
          durationMs: 12,
          httpStatus: retry ? 503 : 200,
          outcome: retry ? 'failed' : 'success',
          message: MESSAGES.workflow.workflowExecuted,
          attempt: retry ? 1 : 2,
          ...(retry ? { retry } : {}),
          expiresAt: 1,
        },
      }),
    );
    if (!retry) {
      await app.table.doc.send(
        new PutCommand({
          TableName: app.table.name,
          Item: { PK, SK: `DISPATCH#${dispatchId}`, entity: 'DispatchDone', expiresAt: 1 },
        }),
      );
    }
    return dispatchId;
  }

  it('puts each former run’s last call at its end’s key, drops the marker, and finds nothing the second time', async () => {
    const repository = new WorkflowRepository(app.table);
    const workflow = workflowRecord({ cronEnabled: true });
    const quiet = workflowRecord();
    await repository.create(workflow);
    await repository.create(quiet);
    await formerCall(workflow.id, minutesAgo(10), minutesAgo(10, 1), 'scheduled');
    const retried = await formerCall(workflow.id, minutesAgo(10), minutesAgo(9));
    const once = await formerCall(workflow.id, minutesAgo(5), minutesAgo(5, 1));
    // Recorded since the deploy: already at its key.
    const recent = dispatchIdOf(workflow.id, minutesAgo(1));
    await new ExecutionRepository(app.table).record({
      workflowId: workflow.id,
      dispatchId: recent,
      trigger: 'schedule',
      startedAt: minutesAgo(1, 1),
      durationMs: 9,
      httpStatus: 200,
      outcome: 'success',
      message: MESSAGES.workflow.workflowExecuted,
      attempt: 1,
    });
    const state = new DispatchStateRepository(app.table);
    expect(await state.stateOf(workflow.id, once)).toMatchObject({ done: false });

    const first = await migrateRunEnds(app.table, now);
    const second = await migrateRunEnds(app.table, now);

    expect(first).toEqual({ markers: 2, moved: 2, left: 0 });
    expect(second).toEqual({ markers: 0, moved: 0, left: 0 });
    for (const dispatchId of [retried, once, recent]) {
      expect(await state.stateOf(workflow.id, dispatchId)).toMatchObject({ done: true });
    }
    const { Items = [] } = await app.table.doc.send(
      new QueryCommand({
        TableName: app.table.name,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': workflowKey(workflow.id).PK },
      }),
    );
    expect(Items.filter((item) => String(item.SK).startsWith('DISPATCH#'))).toEqual([]);
    // Each call once: the retried attempt where it was, each run's last call at its end's key.
    const { items } = await new ExecutionRepository(app.table).listByWorkflow(workflow.id, 10);
    expect(items.map((item) => [item.id, item.startedAt, item.attempt])).toEqual([
      [recent, minutesAgo(1, 1), 1],
      [once, minutesAgo(5, 1), 2],
      [expect.any(String), minutesAgo(10, 1), 1],
      [retried, minutesAgo(9), 2],
    ]);
    expect(Items.map((item) => item.SK)).toEqual(
      expect.arrayContaining([runEndKey(workflow.id, retried).SK, runEndKey(workflow.id, once).SK]),
    );
  });
});
