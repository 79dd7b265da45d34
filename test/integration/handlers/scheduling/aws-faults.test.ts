import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { createSqsDispatchQueue } from '../../../../functions/adapters/scheduling/dispatch-queue';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import type { Table } from '../../../../functions/data/table/table';
import { METRIC, RecordedMetrics } from '../../../../functions/domain/core/metrics';
import type { DispatchMessage } from '../../../../functions/domain/scheduling/ports';
import { createScheduledTickHandler } from '../../../../functions/handlers/scheduling/scheduled-tick';
import { MESSAGES } from '../../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { awsError } from '../../../support/faults';
import { workflowRecord } from '../../../support/records';
import { withClaimers } from '../../../support/scheduling';

/** An AWS SDK error as the SDK throws it: its name is the service's error code. */
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

  /** The tick as deployed: the coordinator, and its claimers (in-process, awaited) on `table`. */
  const tickOn = (table: Table = app.table) => createScheduledTickHandler(withClaimers({ ...app, table }));

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
    // Arrange: two due workflows; on the first tick SQS takes one and refuses the other's entry.
    const workflows = await dueWorkflows(2);
    const refused = workflows[1]!.id;
    let refusing = true;
    sqsMock
      .on(SendMessageBatchCommand)
      .callsFake((input: { Entries?: { Id?: string; MessageBody?: string }[] }) => {
        const entries = input.Entries ?? [];
        const isRefused = (entry: { MessageBody?: string }) =>
          refusing && (JSON.parse(entry.MessageBody ?? '{}') as DispatchMessage).workflowId === refused;
        return {
          Successful: entries
            .filter((entry) => !isRefused(entry))
            .map((entry) => ({ Id: entry.Id, MessageId: '1', MD5OfMessageBody: 'x' })),
          Failed: entries
            .filter(isRefused)
            .map((entry) => ({ Id: entry.Id, Code: 'InternalError', SenderFault: false })),
        };
      });
    const tick = tickOn();

    // Act
    await tick({});
    refusing = false;
    app.clock.advance(60_000);
    await tick({});

    // Assert: the refused run was not lost — it was not claimed (runs are queued first, claimed
    // after), so the next tick queued it, and only it.
    const sent = sentBodies().map((message) => message.workflowId);
    expect(sent).toHaveLength(3);
    expect(sent.filter((id) => id === refused)).toHaveLength(2);
    expect(sent[2]).toBe(refused);
    expect(new Set(sentBodies().map((message) => message.workflowId))).toEqual(
      new Set(workflows.map((workflow) => workflow.id)),
    );
    expect(app.logger.lines.some((line) => line.includes('Envoi à la file refusé'))).toBe(true);
    expect(metrics.countOf(METRIC.dueClaimed)).toBe(2);
    expect(metrics.countOf(METRIC.dueEnqueued)).toBe(2);
    expect(metrics.countOf(METRIC.tickCompleted)).toBe(2);
  });

  it('reports a refused entry in the run’s result in French', async () => {
    // Arrange
    await dueWorkflows(1);
    sqsMock.on(SendMessageBatchCommand).rejects(awsError('ThrottlingException'));

    // Act
    const { adminSchedulerRun } = await import('../../../../functions/runtime/services/scheduling');
    const run = await adminSchedulerRun(withClaimers(app), 'manual');

    // Assert
    expect(run.success).toBe(false);
    expect(run.error).toBe(MESSAGES.scheduler.someQueueFailures(1));
    expect(run.executions.map((execution) => execution.message)).toEqual([MESSAGES.scheduler.queueFailed]);
    expect(metrics.countOf(METRIC.dueEnqueued)).toBe(0);
  });

  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException'])(
    'fails the claimers on DynamoDB %s, logged in French, the slot still due',
    async (code) => {
      // Arrange: one due workflow; the claimers' table client is throttled on every call (as after
      // the SDK's own retries), the data staying in DynamoDB Local for the tick that follows.
      const [workflow] = await dueWorkflows(1);
      const throttled = DynamoDBDocumentClient.from(
        new DynamoDBClient({ region: 'eu-west-3', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
      );
      mockClient(throttled).onAnyCommand().rejects(awsError(code));
      const throttledTick = tickOn({ ...app.table, doc: throttled });

      // Act
      await throttledTick({});

      // Assert: each claimer fails (in AWS its invocation, retried twice, then the on-failure queue
      // and its alarm), the log says so, nothing was sent, and the run is still due.
      expect(
        app.logger.lines.some(
          (line) => line.includes('Lot du planificateur en échec') && line.includes(code),
        ),
      ).toBe(true);
      expect(sentBodies()).toEqual([]);
      sqsMock
        .on(SendMessageBatchCommand)
        .resolves({ Successful: [{ Id: 'm0', MessageId: '1', MD5OfMessageBody: 'x' }] });
      await tickOn()({});
      expect(sentBodies().map((message) => message.workflowId)).toEqual([workflow!.id]);
    },
  );
});
