import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { createSqsDispatchQueue, type DispatchMessage } from '../../functions/adapters/dispatch-queue';
import { WorkflowRepository } from '../../functions/data/workflows';
import { METRIC, RecordedMetrics } from '../../functions/domain/metrics';
import { createScheduledTickHandler } from '../../functions/scheduled-tick';
import { MESSAGES } from '../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';
import { workflowRecord } from '../support/records';

/** An AWS SDK error as the SDK throws it: its name is the service's error code. */
const awsError = (name: string) => Object.assign(new Error(`${name} (simulé)`), { name, $fault: 'client' });

/**
 * The scheduler tick against the faults only a real AWS produces, injected with aws-sdk-client-mock
 * on real SDK clients (DynamoDB Local holds the data): each ends in a French message, a metric
 * (or the missing heartbeat) and, for what must be redone, a slot that stays due — nothing lost.
 */
describe('scheduler tick under AWS faults', () => {
  let app: TestApp;
  let metrics: RecordedMetrics;
  const sqs = new SQSClient({ region: 'eu-west-3', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
  const sqsMock = mockClient(sqs);
  const queue = createSqsDispatchQueue({
    client: sqs,
    queueUrl: () => 'https://sqs.eu-west-3.amazonaws.com/123456789012/webhooks',
    deadLetterQueueUrl: () => 'https://sqs.eu-west-3.amazonaws.com/123456789012/webhooks-dlq',
  });

  beforeEach(async () => {
    sqsMock.reset();
    metrics = new RecordedMetrics();
    const base = await createTestApp(inject('dynamoEndpoint'));
    app = { ...base, metrics, webhookQueue: queue };
  });

  afterEach(async () => {
    await disposeTestApp(app);
  });

  const dueWorkflows = async (count: number) => {
    const repository = new WorkflowRepository(app.table);
    const records = Array.from({ length: count }, () =>
      workflowRecord({ cronEnabled: true, cronInterval: 60 }),
    );
    for (const record of records) await repository.create(record);
    return records;
  };
  const sentBodies = () =>
    sqsMock
      .commandCalls(SendMessageBatchCommand)
      .flatMap((call) => call.args[0].input.Entries ?? [])
      .map((entry) => JSON.parse(entry.MessageBody ?? '{}') as DispatchMessage);

  it('gives back the slot of every entry SendMessageBatch refused, and queues it on the next tick', async () => {
    // Arrange: two due workflows; SQS takes the first entry and refuses the second.
    const workflows = await dueWorkflows(2);
    sqsMock
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: [{ Id: 'm0', MessageId: '1', MD5OfMessageBody: 'x' }],
        Failed: [{ Id: 'm1', Code: 'InternalError', SenderFault: false }],
      })
      .resolves({ Successful: [{ Id: 'm0', MessageId: '2', MD5OfMessageBody: 'x' }], Failed: [] });
    const tick = createScheduledTickHandler(app);

    // Act
    const first = await tick({});
    const refused = sentBodies()[1]!.workflowId;
    app.clock.advance(60_000);
    const second = await tick({});

    // Assert: the refused run was not lost — it went on the next tick, and only it.
    expect(first).toEqual({ checked: 2, dispatched: 1, failed: 1 });
    expect(second).toEqual({ checked: 1, dispatched: 1, failed: 0 });
    expect(sentBodies().map((message) => message.workflowId)).toEqual([expect.any(String), refused, refused]);
    expect(new Set(sentBodies().map((message) => message.workflowId))).toEqual(
      new Set(workflows.map((workflow) => workflow.id)),
    );
    expect(app.logger.lines.some((line) => line.includes('Envoi à la file refusé'))).toBe(true);
    expect(metrics.countOf(METRIC.dueClaimed)).toBe(3);
    expect(metrics.countOf(METRIC.dueEnqueued)).toBe(2);
    expect(metrics.countOf(METRIC.tickCompleted)).toBe(2);
  });

  it('reports a refused entry in the run’s result in French', async () => {
    // Arrange
    await dueWorkflows(1);
    sqsMock.on(SendMessageBatchCommand).rejects(awsError('ThrottlingException'));

    // Act
    const { runScheduler } = await import('../../functions/domain/run-scheduler');
    const { run } = await runScheduler(app, 'manual');

    // Assert
    expect(run.success).toBe(false);
    expect(run.error).toBe(MESSAGES.scheduler.someQueueFailures(1));
    expect(run.executions.map((execution) => execution.message)).toEqual([MESSAGES.scheduler.queueFailed]);
    expect(metrics.countOf(METRIC.dueEnqueued)).toBe(0);
  });

  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException'])(
    'fails the tick on DynamoDB %s, with no heartbeat and the slot still due',
    async (code) => {
      // Arrange: one due workflow; the tick's table client is throttled on every call (as after the
      // SDK's own retries), the data staying in DynamoDB Local for the tick that follows.
      const [workflow] = await dueWorkflows(1);
      const throttled = DynamoDBDocumentClient.from(
        new DynamoDBClient({ region: 'eu-west-3', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
      );
      mockClient(throttled).onAnyCommand().rejects(awsError(code));
      const throttledTick = createScheduledTickHandler({ ...app, table: { ...app.table, doc: throttled } });
      const tick = createScheduledTickHandler(app);

      // Act
      const failure = await throttledTick({}).catch((error: unknown) => error);

      // Assert: the invocation fails (Lambda's on-failure destination, Errors alarm), no heartbeat is
      // counted (the heartbeat alarm), the log says why in French, and the run is still due.
      expect((failure as Error).name).toBe(code);
      expect(metrics.countOf(METRIC.tickCompleted)).toBe(0);
      expect(
        app.logger.lines.some((line) => line.includes('Planificateur interrompu') && line.includes(code)),
      ).toBe(true);
      sqsMock
        .on(SendMessageBatchCommand)
        .resolves({ Successful: [{ Id: 'm0', MessageId: '1', MD5OfMessageBody: 'x' }] });
      await expect(tick({})).resolves.toEqual({ checked: 1, dispatched: 1, failed: 0 });
      expect(sentBodies().map((message) => message.workflowId)).toEqual([workflow!.id]);
    },
  );
});
