import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type { ReceivedDispatch } from '../../../../functions/domain/scheduling/worker-message';
import { workerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { awsError, tableWithFaults } from '../../../support/faults';
import { workflowRecord } from '../../../support/records';
import { heldSlots, startTestReceiver, type TestReceiver } from '../../../support/scheduling';

/**
 * The worker's paths where a run is not called because something failed before the call: the
 * message is left for another delivery (or the dead-letter queue), and the firm's slot taken for it
 * goes back at once rather than staying held until its lease expires.
 */
describe('webhook worker when a step before the call fails', () => {
  let app: TestApp;
  let receiver: TestReceiver;
  let workflow: WorkflowRecord;

  beforeEach(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    receiver = await startTestReceiver(app);
    workflow = workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/run` });
    await new WorkflowRepository(app.table).create(workflow);
  });
  afterEach(async () => {
    await receiver.stop();
    await disposeTestApp(app);
  });

  const received = (body: string): ReceivedDispatch => ({
    messageId: `message-${workflow.id}`,
    receiptHandle: `receipt-${workflow.id}`,
    receiveCount: 1,
    body,
  });
  const dueRun = () => {
    const dueAt = app.clock.now().toISOString();
    return received(
      JSON.stringify({
        workflowId: workflow.id,
        dueAt,
        dispatchId: `${workflow.id}:${dueAt}`,
        trigger: 'schedule',
        firm: workflow.lawyerEmail,
      }),
    );
  };

  it('leaves a message it cannot read for the dead-letter queue, logged, calling nothing', async () => {
    const result = await workerServiceOf(app).handle(received('{"pas": "un message du planificateur"'));

    expect(result).toBe('retry');
    expect(
      app.logger.lines.filter((line) => line.includes('Message illisible dans la file des webhooks')),
    ).toHaveLength(1);
    expect(receiver.calls).toHaveLength(0);
  });

  it("gives the firm's slot back when the run's read fails, and lets the message be retried", async () => {
    const table = tableWithFaults(app.table, {
      batchGet: () => Promise.reject(awsError('ProvisionedThroughputExceededException')),
    });

    await expect(workerServiceOf({ ...app, table }).handle(dueRun())).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });

    expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
    expect(receiver.calls).toHaveLength(0);
  });

  it("gives the firm's slot back when the signing secret cannot be read, and lets the message be retried", async () => {
    const worker = workerServiceOf({
      ...app,
      webhookSigningSecret: () => Promise.reject(awsError('ResourceNotFoundException')),
    });

    await expect(worker.handle(dueRun())).rejects.toMatchObject({ name: 'ResourceNotFoundException' });

    expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
    expect(receiver.calls).toHaveLength(0);
  });
});
