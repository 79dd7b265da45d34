import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { workerServiceOf } from '../../runtime/services/scheduling';

/**
 * The webhook queue's consumer: the batch's runs side by side, each run the worker gives back (or
 * that an error interrupted) a batch item failure. A batch whose every record is given back is still
 * a normal answer: a 503 from a webhook is a retry, not a failure of this function, and must not
 * raise its Errors alarm.
 */
const create = (deps: AppDependencies) => {
  const worker = workerServiceOf(deps);
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await worker.handleBatch(
      event.Records.map((record) => ({
        messageId: record.messageId,
        body: record.body,
        receiptHandle: record.receiptHandle,
        receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
      })),
    );
    return {
      batchItemFailures: event.Records.flatMap((record, index) => {
        const result = results[index];
        if (result?.status === 'fulfilled')
          return result.value === 'retry' ? [{ itemIdentifier: record.messageId }] : [];
        deps.logger.error('Exécution de webhook interrompue', {
          messageId: record.messageId,
          errorName: result?.reason instanceof Error ? result.reason.name : 'inconnu',
          errorMessage: result?.reason instanceof Error ? result.reason.message : undefined,
        });
        return [{ itemIdentifier: record.messageId }];
      }),
    };
  };
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createWebhookWorkerHandler = declaredFunction('webhook-worker', create);

export const handler = lambdaEntry('webhook-worker', createWebhookWorkerHandler);
