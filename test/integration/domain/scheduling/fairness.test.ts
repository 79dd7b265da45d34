import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { DispatchStateRepository } from '../../../../functions/data/scheduling/dispatch-state';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import { FirmSlotRepository } from '../../../../functions/data/scheduling/firm-slots';
import { SchedulerRunRepository } from '../../../../functions/data/scheduling/scheduler-runs';
import { mapWithConcurrency } from '../../../../functions/domain/core/concurrency';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type {
  DeliveryOutcome,
  DispatchEntry,
  DispatchQueue,
  WebhookDelivery,
} from '../../../../functions/domain/scheduling/ports';
import { FIRM_CALLS } from '../../../../functions/domain/scheduling/scheduling-settings';
import { WorkerService } from '../../../../functions/domain/scheduling/worker';
import type { ReceivedDispatch } from '../../../../functions/domain/scheduling/worker-message';
import { automationHealthOf } from '../../../../functions/runtime/services/health';
import { reportLinksOf } from '../../../../functions/runtime/services/webhooks';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { uniqueEmail, workflowRecord } from '../../../support/records';
import { eventually } from '../../../support/scheduling';

/** Workers in flight at once: four times one firm's slots. */
const WORKERS = 20;
/** The slow firm's due runs: twice the workers, so without a cap per firm they would hold them all. */
const SLOW_RUNS = 40;
const FAST_FIRMS = 50;

const answered: DeliveryOutcome = {
  ok: true,
  httpStatus: 200,
  durationMs: 1,
  retryable: false,
  message: 'Workflow exécuté avec succès',
};

/**
 * Fair delivery, on the worker's own terms: one firm's n8n holds every call it gets until the test
 * lets go, the other firms answer at once. The slow firm holds its slots and no more, its other runs
 * go back to the queue, and every other firm is called while its calls still hang. The real-clock
 * figure (the fast firms' dispatch lag) is the bench's (`npm run bench -- fairness`).
 */
describe('fair delivery between firms', () => {
  let app: TestApp;

  beforeEach(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterEach(async () => {
    await disposeTestApp(app);
  });

  it('keeps a firm whose n8n hangs to its own slots and calls every other firm meanwhile', async () => {
    // Arrange
    const slowFirm = uniqueEmail('lent');
    const slow = Array.from({ length: SLOW_RUNS }, () =>
      workflowRecord({ cronEnabled: true, lawyerEmail: slowFirm }),
    );
    const fast = Array.from({ length: FAST_FIRMS }, () =>
      workflowRecord({ cronEnabled: true, lawyerEmail: uniqueEmail('rapide') }),
    );
    const workflows = new WorkflowRepository(app.table);
    for (const record of [...slow, ...fast]) await workflows.create(record);
    const slowIds = new Set(slow.map((record) => record.id));

    const hanging: (() => void)[] = [];
    const fastCalled = new Set<string>();
    let slowInFlight = 0;
    let slowMostInFlight = 0;
    const webhooks: WebhookDelivery = {
      deliver: async (request) => {
        const { workflowId } = request.body as { workflowId: string };
        if (!slowIds.has(workflowId)) {
          fastCalled.add(workflowId);
          return answered;
        }
        slowInFlight += 1;
        slowMostInFlight = Math.max(slowMostInFlight, slowInFlight);
        await new Promise<void>((resolve) => hanging.push(resolve));
        slowInFlight -= 1;
        return answered;
      },
    };
    const sentBack: DispatchEntry[] = [];
    const queue: DispatchQueue = {
      sendBatch: async (entries) => {
        sentBack.push(...entries);
        return { failed: [] };
      },
      changeVisibility: async () => undefined,
      deadLetterCount: async () => 0,
      redriveDeadLetters: async () => ({ moved: 0, dropped: 0 }),
    };
    const worker = new WorkerService({
      dispatches: new DispatchStateRepository(app.table),
      executions: new ExecutionRepository(app.table),
      slots: new FirmSlotRepository(app.table),
      lastResults: new SchedulerRunRepository(app.table),
      health: automationHealthOf(app),
      queue,
      clock: app.clock,
      webhooks,
      reportLinks: reportLinksOf(app),
      logger: app.logger,
    });
    // The queue's order: every run of the slow firm before the others.
    const received = [...slow, ...fast].map((record) => receivedRun(record, app.clock.now()));

    // Act
    const handled = mapWithConcurrency(received, WORKERS, (message) => worker.handle(message));
    await eventually(() => fastCalled.size === FAST_FIRMS, 'tous les cabinets rapides appelés', 60_000);

    // Assert: every other firm was called while the slow firm's calls still hung, once each.
    expect(slowInFlight).toBe(FIRM_CALLS.maxConcurrent);
    expect(slowMostInFlight).toBe(FIRM_CALLS.maxConcurrent);
    // Its other runs went back to the queue, delayed, none dropped.
    const slowSentBack = sentBack.filter((entry) => slowIds.has(entry.message.workflowId));
    expect(slowSentBack).toHaveLength(SLOW_RUNS - FIRM_CALLS.maxConcurrent);
    expect(new Set(slowSentBack.map((entry) => entry.message.workflowId)).size).toBe(
      SLOW_RUNS - FIRM_CALLS.maxConcurrent,
    );
    expect(slowSentBack.every((entry) => entry.delaySeconds > 0 && entry.message.deferrals === 1)).toBe(true);
    expect(sentBack).toHaveLength(slowSentBack.length);

    for (const release of hanging) release();
    expect(await handled).toEqual(received.map(() => 'done'));
  }, 120_000);
});

/** A due run of a workflow as the queue hands it to the worker. */
function receivedRun(record: WorkflowRecord, dueAt: Date): ReceivedDispatch {
  const due = dueAt.toISOString();
  return {
    messageId: `message-${record.id}`,
    receiptHandle: `receipt-${record.id}`,
    receiveCount: 1,
    body: JSON.stringify({
      workflowId: record.id,
      dueAt: due,
      dispatchId: `${record.id}:${due}`,
      trigger: 'schedule',
      firm: record.lawyerEmail,
    }),
  };
}
