import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

import type { Logger } from '../../../functions/domain/core/ports';
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
  /**
   * What the poller holds now: invocations in flight, their deletes, and the messages received
   * ahead for the next free slot. 0 once everything it received is settled.
   */
  readonly inFlight: number;
}

/**
 * Plays the Lambda SQS event source: batches, at most `maxConcurrency` at once, partial failures.
 * As Lambda's pollers do, it receives ahead of free slots and deletes outside them, so a freed slot
 * starts the next batch at once instead of waiting for two round trips.
 */
export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  const { client, queueUrl, handler, maxConcurrency, batchSize, logger } = options;
  const waitTimeSeconds = options.waitTimeSeconds ?? 5;
  const abort = new AbortController();
  /** Invocations in flight (at most `maxConcurrency`). */
  const running = new Set<Promise<void>>();
  /** Deletes of finished invocations' records. */
  const deleting = new Set<Promise<void>>();
  /** Messages received for the next free slots, oldest first. */
  const ahead: Message[] = [];
  /** Messages held at most: one batch per slot in flight, and one waiting for each. */
  const holdAtMost = 2 * maxConcurrency * batchSize;
  let slotFreed: (() => void) | undefined;

  // Deleted ten at a time, as Lambda's event source does: one request for a batch's records.
  const remove = (messages: Message[]) => {
    const deletion = (async () => {
      for (let start = 0; start < messages.length; start += 10) {
        const entries = messages.slice(start, start + 10).map((message, index) => ({
          Id: String(index),
          ReceiptHandle: message.ReceiptHandle,
        }));
        const { Failed = [] } = await client
          .send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }))
          .catch((error: unknown) => ({ Failed: entries.map(() => ({ Code: errorNameOf(error) })) }));
        for (const failure of Failed) {
          logger.warn('Message non supprimé (il sera redistribué)', { errorName: failure.Code ?? 'inconnu' });
        }
      }
    })();
    deleting.add(deletion);
    void deletion.finally(() => deleting.delete(deletion));
  };

  /** Runs the worker on one batch; resolves with the records to delete. */
  const invoke = async (messages: Message[]): Promise<Message[]> => {
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, queueUrl)) };
    try {
      const response = await handler(event);
      const failed = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
      return messages.filter((message) => !failed.has(message.MessageId ?? ''));
    } catch (error) {
      logger.error('Worker en échec : le lot reviendra après son délai de visibilité', {
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
      return [];
    }
  };

  /** Starts batches of the messages received ahead while slots are free. */
  const fillSlots = () => {
    while (running.size < maxConcurrency && ahead.length > 0) {
      const batch = ahead.splice(0, batchSize);
      const invocation = invoke(batch).then((done) => {
        running.delete(invocation);
        if (done.length > 0) remove(done);
        fillSlots();
        slotFreed?.();
        slotFreed = undefined;
      });
      running.add(invocation);
    }
  };

  const loop = async () => {
    while (!abort.signal.aborted) {
      const room = holdAtMost - running.size * batchSize - ahead.length;
      if (room <= 0) {
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
            MaxNumberOfMessages: Math.min(10, room),
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
      ahead.push(...messages);
      fillSlots();
    }
  };
  const polling = loop();

  return {
    get inFlight() {
      return running.size + deleting.size + ahead.length;
    },
    stop: async () => {
      abort.abort();
      slotFreed?.();
      await polling;
      // Messages received ahead and never handed over go back to the queue at once.
      const unused = ahead.splice(0);
      await Promise.all(
        unused.map((message) =>
          client
            .send(
              new ChangeMessageVisibilityCommand({
                QueueUrl: queueUrl,
                ReceiptHandle: message.ReceiptHandle,
                VisibilityTimeout: 0,
              }),
            )
            // Then it comes back after its visibility time-out.
            .catch(() => undefined),
        ),
      );
      await Promise.all(running);
      await Promise.all(deleting);
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

const errorNameOf = (error: unknown) => (error instanceof Error ? error.name : 'inconnu');
