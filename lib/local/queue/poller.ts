import {
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

import type { Logger } from '../../../functions/runtime/dependencies';
import { LOCAL_AWS } from '../dynamodb-local';

export interface QueuePollerOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
  /** The worker, as Lambda would invoke it. */
  readonly handler: (event: SQSEvent) => Promise<SQSBatchResponse>;
  /** Invocations in flight at once: the event source's maximum concurrency. */
  readonly maxConcurrency: number;
  /** Records per invocation: the event source's batch size. */
  readonly batchSize: number;
  /** Long-poll wait of each receive, in seconds. @default 5 */
  readonly waitTimeSeconds?: number;
  readonly logger: Logger;
}

export interface QueuePoller {
  /** Resolves once the poller stopped receiving and every invocation in flight has finished. */
  stop(): Promise<void>;
  /** Invocations in flight now. */
  readonly inFlight: number;
}

/**
 * Plays the Lambda SQS event source locally: long-polls the queue, invokes the worker with batches
 * of `batchSize` records (ApproximateReceiveCount included), at most `maxConcurrency` invocations
 * at once, deletes the records the worker did not report in `batchItemFailures`, and leaves the
 * others to the queue (they come back after their visibility time-out, or the back-off the worker
 * set, and move to the dead-letter queue after the last attempt). A worker that throws fails its
 * whole batch, as in Lambda.
 */
export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  const { client, queueUrl, handler, maxConcurrency, batchSize, logger } = options;
  const waitTimeSeconds = options.waitTimeSeconds ?? 5;
  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  let slotFreed: (() => void) | undefined;

  const invoke = async (messages: Message[]) => {
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, queueUrl)) };
    let failed: Set<string>;
    try {
      const response = await handler(event);
      failed = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
    } catch (error) {
      logger.error('Worker en échec : le lot reviendra après son délai de visibilité', {
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
      return;
    }
    for (const message of messages) {
      if (failed.has(message.MessageId ?? '')) continue;
      await client
        .send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }))
        .catch((error: unknown) =>
          logger.warn('Message non supprimé (il sera redistribué)', {
            errorName: error instanceof Error ? error.name : 'inconnu',
          }),
        );
    }
  };

  const loop = async () => {
    while (!abort.signal.aborted) {
      if (running.size >= maxConcurrency) {
        await new Promise<void>((resolve) => {
          slotFreed = resolve;
        });
        continue;
      }
      let messages: Message[];
      try {
        ({ Messages: messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, (maxConcurrency - running.size) * batchSize),
            WaitTimeSeconds: waitTimeSeconds,
            MessageSystemAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        ));
      } catch (error) {
        if (abort.signal.aborted) return;
        logger.warn('Lecture de la file impossible, nouvel essai dans une seconde', {
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      for (let start = 0; start < messages.length; start += batchSize) {
        const invocation = invoke(messages.slice(start, start + batchSize)).finally(() => {
          running.delete(invocation);
          slotFreed?.();
          slotFreed = undefined;
        });
        running.add(invocation);
      }
    }
  };
  const polling = loop();

  return {
    get inFlight() {
      return running.size;
    },
    stop: async () => {
      abort.abort();
      slotFreed?.();
      await polling;
      await Promise.all(running);
    },
  };
}

/** An SQS message as the Lambda event source hands it to the function. */
function toRecord(message: Message, queueUrl: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  const queueName = queueUrl.slice(queueUrl.lastIndexOf('/') + 1);
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? '',
      SenderId: attributes.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? '',
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${LOCAL_AWS.region}:000000000000:${queueName}`,
    awsRegion: LOCAL_AWS.region,
  };
}
