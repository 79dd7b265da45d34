import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { meterTable } from '../../../../bench/capacity';
import { workflowKey } from '../../../../functions/data/directory/keys';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { DispatchStateRepository } from '../../../../functions/data/scheduling/dispatch-state';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import { executionSortKey, runEndKey } from '../../../../functions/data/scheduling/keys';
import { recordedRunOf } from '../../../../functions/data/scheduling/replays';
import { dispatchIdOf } from '../../../../functions/domain/scheduling/due-slots';
import type { NewExecution } from '../../../../functions/domain/scheduling/ports';
import { MESSAGES } from '../../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { workflowRecord } from '../../../support/records';

/**
 * The history and the exactly-once record as one item: a dispatched run's end is its history entry,
 * put once at its run's key, which is what a second delivery of the run reads before calling.
 */
describe('execution history', () => {
  let app: TestApp;
  let executions: ExecutionRepository;

  beforeEach(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    executions = new ExecutionRepository(app.table);
  });
  afterEach(async () => {
    await disposeTestApp(app);
  });

  const at = (minute: number, second = 0) =>
    new Date(Date.UTC(2026, 10, 28, 9, minute, second)).toISOString();
  const call = (workflowId: string, fields: Partial<NewExecution>): NewExecution => ({
    workflowId,
    dispatchId: null,
    trigger: 'schedule',
    startedAt: at(0),
    durationMs: 20,
    httpStatus: 200,
    outcome: 'success',
    message: MESSAGES.workflow.workflowExecuted,
    attempt: 1,
    ...fields,
  });

  it('puts a run’s end once, in one write unit, where the check before a call finds it', async () => {
    const workflow = workflowRecord();
    await new WorkflowRepository(app.table).create(workflow);
    const dispatchId = dispatchIdOf(workflow.id, at(1));
    const state = new DispatchStateRepository(app.table);
    expect(await state.stateOf(workflow.id, dispatchId)).toMatchObject({ done: false });
    const meter = meterTable(app.table);

    const first = await executions.record(call(workflow.id, { dispatchId, startedAt: at(1, 1) }));
    const second = await executions.record(
      call(workflow.id, { dispatchId, startedAt: at(1, 3), httpStatus: 500, outcome: 'failed' }),
    );

    expect([first, second]).toEqual([true, false]);
    // One put of one unit; the second delivery's put is refused by its condition, nothing written.
    expect(meter.since(0)).toMatchObject([
      { command: 'PutItem', writeUnits: 1, conditionFailed: false },
      { command: 'PutItem', conditionFailed: true },
    ]);
    expect(await state.stateOf(workflow.id, dispatchId)).toMatchObject({ done: true });
    const { items } = await executions.listByWorkflow(workflow.id, 10);
    expect(items).toEqual([
      expect.objectContaining({ id: dispatchId, runId: dispatchId, startedAt: at(1, 1), outcome: 'success' }),
    ]);
  });

  it('lists a run’s end at its due time, its retried attempts at their start, older shapes alike, and replays each', async () => {
    const workflow = workflowRecord();
    const dispatchId = dispatchIdOf(workflow.id, at(10));
    // Written before the run's end became its history entry: the call at its start, a marker beside it.
    const formerId = randomUUID();
    const formerDispatch = dispatchIdOf(workflow.id, at(5));
    await app.table.doc.send(
      new PutCommand({
        TableName: app.table.name,
        Item: {
          PK: workflowKey(workflow.id).PK,
          SK: executionSortKey(at(5, 1), formerId),
          entity: 'Execution',
          id: formerId,
          ...call(workflow.id, { dispatchId: formerDispatch, startedAt: at(5, 1) }),
        },
      }),
    );
    await executions.record(
      call(workflow.id, {
        dispatchId,
        startedAt: at(10, 1),
        httpStatus: 503,
        outcome: 'failed',
        retry: 'scheduled',
      }),
    );
    await executions.record(call(workflow.id, { dispatchId, startedAt: at(10, 40), attempt: 2 }));
    await executions.record(call(workflow.id, { trigger: 'manual', startedAt: at(12), runId: randomUUID() }));

    const { items } = await executions.listByWorkflow(workflow.id, 10);

    expect(items.map((item) => [item.trigger, item.startedAt, item.attempt])).toEqual([
      ['manual', at(12), 1],
      ['schedule', at(10, 1), 1],
      ['schedule', at(10, 40), 2],
      ['schedule', at(5, 1), 1],
    ]);
    expect(items[2]?.id).toBe(dispatchId);
    expect(runEndKey(workflow.id, dispatchId).SK).toBe(executionSortKey(at(10), dispatchId));
    // 'Rejouer' reads each row by what the history gives it: its id and start.
    for (const item of items) {
      expect(await recordedRunOf(app.table, workflow.id, item.startedAt, item.id)).toMatchObject({
        trigger: item.trigger,
      });
    }
    // A run's end named with another start is not that row.
    expect(await recordedRunOf(app.table, workflow.id, at(10, 1), dispatchId)).toBeNull();
  });
});
