import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mapWithConcurrency } from './domain/concurrency';
import { WEBHOOK_QUEUE } from './domain/scheduling-settings';
import { WorkerService } from './domain/worker';
import type { AppDependencies } from './runtime/dependencies';
import { declaredFunction, lambdaEntry } from './runtime/entry';

/**
 * The consumer of the webhook queue (SQS event source with ReportBatchItemFailures): each record is
 * one due run. A record the worker gives back (to retry, or to dead-letter after the last attempt)
 * or that fails unexpectedly is reported in `batchItemFailures`; the others are deleted by the
 * event source. The event source's maximum concurrency (5) with batches of one caps the calls in
 * flight at spec §3's maxConcurrentWorkflows; within a batch the same cap holds.
 */
const create = (deps: AppDependencies) => {
  const worker = new WorkerService({
    table: deps.table,
    queue: deps.webhookQueue,
    clock: deps.clock,
    logger: deps.logger,
    webhookSigningSecret: deps.webhookSigningSecret,
    allowPrivateWebhooks: deps.allowPrivateWebhooks,
    ...(deps.mail ? { mail: deps.mail } : {}),
  });
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchItemFailure[] = [];
    await mapWithConcurrency(event.Records, WEBHOOK_QUEUE.maxConcurrency, async (record) => {
      try {
        const result = await worker.handle({
          messageId: record.messageId,
          body: record.body,
          receiptHandle: record.receiptHandle,
          receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
        });
        if (result === 'retry') failures.push({ itemIdentifier: record.messageId });
      } catch (error) {
        deps.logger.error('Exécution de webhook interrompue', {
          messageId: record.messageId,
          errorName: error instanceof Error ? error.name : 'inconnu',
          errorMessage: error instanceof Error ? error.message : undefined,
        });
        failures.push({ itemIdentifier: record.messageId });
      }
    });
    return { batchItemFailures: failures };
  };
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createWebhookWorkerHandler = declaredFunction('webhook-worker', create);

export const handler = lambdaEntry('webhook-worker', createWebhookWorkerHandler);
