import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type { DispatchMessage } from '../../../../functions/domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../../../functions/domain/scheduling/scheduling-settings';
import { createWebhookWorkerHandler } from '../../../../functions/handlers/scheduling/webhook-worker';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { uniqueEmail, workflowRecord } from '../../../support/records';
import {
  eventually,
  heldSlots,
  type ReceiverBehaviour,
  startTestReceiver,
  type TestReceiver,
} from '../../../support/scheduling';

/**
 * The worker's batches, invoked as the Lambda event source invokes it (one event of several
 * records), against DynamoDB Local, fauxqs and a real HTTP receiver: one call at a time in the
 * records' order, the next one beside a call that is slow, and each invocation answering for its
 * own records even when the local runtime runs several at once in one process.
 */
describe('webhook worker batches', () => {
  let base: TestApp;
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let behaviour: ReceiverBehaviour;

  beforeEach(async () => {
    behaviour = () => ({ status: 200 });
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    base = await createTestApp(inject('dynamoEndpoint'));
    app = { ...base, webhookQueue: queues.dispatchQueue };
    receiver = await startTestReceiver(app, (path, index) => behaviour(path, index));
  });
  afterEach(async () => {
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(base);
  });

  const firm = () => uniqueEmail('cabinet');
  async function scheduled(path: string, lawyerEmail: string) {
    const record = workflowRecord({
      cronEnabled: true,
      webhookUrl: `${receiver.baseUrl}${path}`,
      lawyerEmail,
    });
    await new WorkflowRepository(app.table).create(record);
    return record;
  }
  /** The SQS record of a due run of `workflow`, as the event source hands it over. */
  function dueRun(workflow: WorkflowRecord): SQSRecord {
    const dueAt = app.clock.now().toISOString();
    const message: DispatchMessage = {
      workflowId: workflow.id,
      dueAt,
      dispatchId: `${workflow.id}:${dueAt}`,
      trigger: 'schedule',
      firm: workflow.lawyerEmail,
    };
    return {
      messageId: randomUUID(),
      receiptHandle: `reçu-${randomUUID()}`,
      body: JSON.stringify(message),
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-3:000000000000:webhooks',
      awsRegion: 'eu-west-3',
    };
  }
  const batch = (workflows: WorkflowRecord[]): SQSEvent => ({ Records: workflows.map(dueRun) });
  const history = async (workflowId: string) =>
    (await new ExecutionRepository(app.table).listByWorkflow(workflowId, 10)).items;

  it('calls the runs of a batch side by side, and records each', async () => {
    behaviour = () => ({ status: 200, delayMs: 20 });
    const lawyer = firm();
    const workflows: WorkflowRecord[] = [];
    for (let index = 0; index < WEBHOOK_QUEUE.batchSize; index += 1) {
      workflows.push(await scheduled(`/suite/${index}`, index % 2 === 0 ? lawyer : firm()));
    }

    const response = await createWebhookWorkerHandler(app)(batch(workflows));

    expect(response.batchItemFailures).toEqual([]);
    expect(receiver.maxConcurrent).toBeGreaterThan(1);
    expect(receiver.calls.map((call) => call.path).sort()).toEqual(
      workflows.map((_, index) => `/suite/${index}`).sort(),
    );
    for (const workflow of workflows) {
      expect(await history(workflow.id)).toMatchObject([{ outcome: 'success', httpStatus: 200, attempt: 1 }]);
    }
    // Every slot taken ahead of its call went back.
    expect(await heldSlots(app, lawyer)).toEqual([]);
  });

  it('calls the next run beside a slow one, so a slow n8n does not hold the batch', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    behaviour = (path) => (path === '/lent' ? { status: 200, until: held } : { status: 200 });
    const slow = await scheduled('/lent', firm());
    const quick = await scheduled('/rapide', firm());

    const answered = createWebhookWorkerHandler(app)(batch([slow, quick]));
    // The slow call (first in the batch) is held open until the other run is called and recorded:
    // called one after the other, it never would be. Its request may reach the receiver after the
    // quick one has answered, so the test waits for both rather than for two calls at once.
    await eventually(
      async () => receiver.callsOn('/lent').length === 1 && (await history(quick.id)).length === 1,
      'exécution suivante appelée et enregistrée à côté de la lente',
    );
    expect(await history(slow.id)).toEqual([]);
    release();

    expect((await answered).batchItemFailures).toEqual([]);
    expect(await history(slow.id)).toMatchObject([{ outcome: 'success' }]);
    expect(await history(quick.id)).toMatchObject([{ outcome: 'success' }]);
  });

  it('answers each of two invocations at once with its own runs to retry: none is lost', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    behaviour = (path) =>
      path === '/occupe'
        ? { status: 503 }
        : path === '/tenu'
          ? { status: 200, until: held }
          : { status: 200 };
    const handler = createWebhookWorkerHandler(app);
    const busy = await scheduled('/occupe', firm());
    const kept = await scheduled('/tenu', firm());
    const other = await scheduled('/autre', firm());
    const first = batch([busy, kept]);

    const firstAnswered = handler(first);
    // The busy run has been given back (its retry is what the first answer must report)...
    await eventually(
      () => app.logger.lines.some((line) => line.includes('Délai de nouvel essai non appliqué')),
      'exécution rendue à la file',
    );
    // ...when a second invocation starts and ends in the same process, the first still calling.
    expect((await handler(batch([other]))).batchItemFailures).toEqual([]);
    release();

    expect((await firstAnswered).batchItemFailures).toEqual([
      { itemIdentifier: first.Records[0]?.messageId },
    ]);
    expect(await history(busy.id)).toMatchObject([
      { outcome: 'failed', httpStatus: 503, retry: 'scheduled' },
    ]);
    expect(await history(kept.id)).toMatchObject([{ outcome: 'success' }]);
  });

  describe('a run delivered again while it is being called', () => {
    let release: () => void = () => undefined;
    beforeEach(() => {
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      behaviour = () => ({ status: 200, until: held });
    });

    it('drops a copy in another message (two ticks queued it, or SQS sent it twice): one call', async () => {
      const workflow = await scheduled('/une-fois', firm());
      // The two records carry the same run: same workflow, same due time, two messages.
      const copies = batch([workflow, workflow]);
      expect(new Set(copies.Records.map((record) => JSON.parse(record.body).dispatchId)).size).toBe(1);

      const answered = createWebhookWorkerHandler(app)(copies);
      // The copy, called beside it, is dropped once its slot is refused.
      await eventually(
        () => app.logger.lines.some((line) => line.includes('message en double non appelé')),
        'copie écartée',
      );
      release();

      expect((await answered).batchItemFailures).toEqual([]);
      expect(receiver.calls).toHaveLength(1);
      expect(await history(workflow.id)).toMatchObject([{ outcome: 'success', attempt: 1 }]);
      expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
    });

    it('hands back the same message received again (its first delivery still calling), never deletes it', async () => {
      const workflow = await scheduled('/une-fois', firm());
      const handler = createWebhookWorkerHandler(app);
      const run = batch([workflow]);

      const first = handler(run);
      await eventually(() => receiver.calls.length === 1, 'premier appel en cours');
      const again = await handler(run);
      release();

      // Reported to retry: the event source leaves it in the queue (the holder's message too).
      expect(again.batchItemFailures).toEqual([{ itemIdentifier: run.Records[0]?.messageId }]);
      expect((await first).batchItemFailures).toEqual([]);
      expect(receiver.calls).toHaveLength(1);
      expect(await history(workflow.id)).toHaveLength(1);
      expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
    });
  });
});
