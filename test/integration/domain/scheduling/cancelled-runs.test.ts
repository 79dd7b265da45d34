import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type { DispatchQueue } from '../../../../functions/domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../../../functions/domain/scheduling/scheduling-settings';
import { createWebhookWorkerHandler } from '../../../../functions/handlers/scheduling/webhook-worker';
import { schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import { type QueuePoller, startQueuePoller } from '../../../../lib/local/queue/poller';
import { GLOBAL_SCHEDULING, LIST_PAGE } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { workflowRecord } from '../../../support/records';
import { eventually, queueDepth, startTestReceiver, type TestReceiver } from '../../../support/scheduling';

/**
 * Issue 14 §6: a run switched off while it waits in the queue (first try, or between two tries)
 * is not called, and its history says so; a deleted workflow's run leaves a log line.
 */
describe('runs dropped because their automation was switched off', () => {
  let base: TestApp;
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let poller: QueuePoller | undefined;
  const held: string[] = [];

  beforeEach(async () => {
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    base = await createTestApp(inject('dynamoEndpoint'));
    // The retry is held back (as by a long back-off) until the test lets it go.
    held.length = 0;
    const queue: DispatchQueue = {
      ...queues.dispatchQueue,
      changeVisibility: async (receiptHandle) => {
        held.push(receiptHandle);
        await queues.dispatchQueue.changeVisibility(receiptHandle, 600);
      },
    };
    app = { ...base, webhookQueue: queue };
    receiver = await startTestReceiver(app, (_path, index) => ({ status: index === 0 ? 429 : 200 }));
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(base);
  });

  const startPoller = () => {
    poller = startQueuePoller({
      client: queues.client,
      queueUrl: queues.queueUrl,
      handler: createWebhookWorkerHandler(app),
      maxConcurrency: GLOBAL_SCHEDULING.maxConcurrentWorkflows,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: app.logger,
    });
  };
  const tick = () =>
    schedulerServiceOf({
      table: app.table,
      queue: app.webhookQueue,
      clock: app.clock,
      logger: app.logger,
    }).run('schedule');
  const drained = async () => (await queueDepth(queues)).total === 0 && poller?.inFlight === 0;
  const history = async (id: string) =>
    (await new ExecutionRepository(app.table).listByWorkflow(id, LIST_PAGE.max)).items;
  const workflows = () => new WorkflowRepository(app.table);

  async function scheduled(): Promise<WorkflowRecord> {
    // Hourly: a tick queues its first run alone (a claim takes the runs of the next ten minutes).
    const record = workflowRecord({
      cronEnabled: true,
      cronInterval: 60,
      webhookUrl: `${receiver.baseUrl}/flux`,
    });
    await workflows().create(record);
    return record;
  }

  it.each([
    ['scheduling switched off', 'cronEnabled', MESSAGES.execution.cancelledUnscheduled],
    ['the automation deactivated', 'active', MESSAGES.execution.cancelledInactive],
  ] as const)('records a run retried after a 429 as cancelled once %s', async (_label, flag, message) => {
    const workflow = await scheduled();
    await tick();
    // The first try is answered 429; before its retry, the automation is switched off.
    startPoller();
    await eventually(() => held.length === 1, 'premier essai en attente de nouvel essai');
    await workflows().toggle(workflow.id, flag, app.clock.now().toISOString());
    app.clock.advance(5_000);
    await queues.dispatchQueue.changeVisibility(held[0] ?? '', 0);

    await eventually(
      async () => (await history(workflow.id)).length === 2 && (await drained()),
      'run annulé enregistré',
    );

    expect(receiver.calls).toHaveLength(1);
    const [first, cancelled] = [...(await history(workflow.id))].sort((a, b) => a.attempt - b.attempt);
    expect(first).toMatchObject({ outcome: 'failed', httpStatus: 429, retry: 'scheduled' });
    expect(cancelled).toMatchObject({ outcome: 'cancelled', httpStatus: null, message, attempt: 2 });
    expect((await workflows().getById(workflow.id))?.cronLastRun).toBe(first?.startedAt);
  });

  it('logs the run of a workflow deleted meanwhile, its history gone with it', async () => {
    const workflow = await scheduled();
    await tick();
    await workflows().delete(workflow.id);

    startPoller();
    await eventually(drained, 'file vidée');

    expect(receiver.calls).toHaveLength(0);
    expect(
      app.logger.lines.some(
        (line) => line.includes('Exécution annulée : automatisation supprimée') && line.includes(workflow.id),
      ),
    ).toBe(true);
  });
});
