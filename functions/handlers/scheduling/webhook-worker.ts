import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { CallLine, type CallPlace, type WorkerService } from '../../domain/scheduling/worker';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { workerServiceOf } from '../../runtime/services/scheduling';

/** A run the worker gives back to the queue: reported as a batch item failure, not an error. */
class RunGivenBack extends Error {
  override readonly name = 'RunGivenBack';
}

/**
 * The webhook queue's consumer: each run the worker gives back is a batch item failure. A batch whose
 * every record is given back is still a normal answer: a 503 from a webhook is a retry, not a failure
 * of this function, and must not raise its Errors alarm.
 */
const create = (deps: AppDependencies) => {
  const worker = workerServiceOf(deps);
  const handleRecord = async (record: SQSRecord, place: CallPlace): Promise<void> => {
    let result: Awaited<ReturnType<WorkerService['handle']>>;
    try {
      result = await worker.handle(
        {
          messageId: record.messageId,
          body: record.body,
          receiptHandle: record.receiptHandle,
          receiveCount: Number(record.attributes.ApproximateReceiveCount) || 1,
        },
        place,
      );
    } catch (error) {
      deps.logger.error('Exécution de webhook interrompue', {
        messageId: record.messageId,
        errorName: error instanceof Error ? error.name : 'inconnu',
        errorMessage: error instanceof Error ? error.message : undefined,
      });
      throw error;
    }
    if (result === 'retry') throw new RunGivenBack(record.messageId);
  };
  return (event: SQSEvent): Promise<SQSBatchResponse> => {
    // The calls' line, its places taken in the records' order before any work starts.
    const line = new CallLine();
    const places = new Map(event.Records.map((record) => [record.messageId, line.place()]));
    line.close();
    // A processor per invocation: it keeps the batch's state, and the local runtime invokes this
    // handler several times at once in one process (Lambda, one invocation per environment).
    return processPartialResponse(
      event,
      (record: SQSRecord) => handleRecord(record, places.get(record.messageId) ?? CallLine.alone()),
      new BatchProcessor(EventType.SQS),
      { processInParallel: true, throwOnFullBatchFailure: false },
    );
  };
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createWebhookWorkerHandler = declaredFunction('webhook-worker', create);

export const handler = lambdaEntry('webhook-worker', createWebhookWorkerHandler);
