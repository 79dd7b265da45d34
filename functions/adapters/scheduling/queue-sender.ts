import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DispatchEntry, DispatchQueue, SendBatchResult } from '../../domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../domain/scheduling/scheduling-settings';

export interface SqsQueueSenderOptions {
  readonly client: SQSClient;
  /** Read on first use: only the functions that use the queue are given its URL. */
  readonly queueUrl: () => string;
}

const noDeadLetters = () => {
  throw new Error('Composition AWS : file des échecs non déclarée');
};

/**
 * The SQS adapter of the queue port for the functions that send runs and hand them back (every
 * one but the resend of dead letters, `dispatch-queue.ts`): its dead-letter calls throw.
 */
export function createSqsQueueSender({ client, queueUrl }: SqsQueueSenderOptions): DispatchQueue {
  const sendBatch = async (entries: readonly DispatchEntry[]): Promise<SendBatchResult> => {
    if (entries.length === 0) return { failed: [] };
    if (entries.length > WEBHOOK_QUEUE.sendBatchSize) throw new Error('Lot SQS de plus de 10 messages');
    try {
      const { Failed } = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl(),
          Entries: entries.map((entry, index) => ({
            Id: `m${index}`,
            MessageBody: JSON.stringify({ ...entry.message, firm: entry.firm }),
            DelaySeconds: entry.delaySeconds,
            MessageGroupId: entry.firm,
          })),
        }),
      );
      return {
        failed: (Failed ?? []).map((failure) => ({
          index: Number((failure.Id ?? '').slice(1)),
          reason: failure.Code ?? 'inconnu',
        })),
      };
    } catch (error) {
      // The whole call failed (throttled, network): no entry is known to be queued.
      const reason = error instanceof Error ? error.name : 'inconnu';
      return { failed: entries.map((_, index) => ({ index, reason })) };
    }
  };

  return {
    sendBatch,

    async changeVisibility(receiptHandle, seconds) {
      await client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl(),
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: seconds,
        }),
      );
    },

    deadLetterCount: noDeadLetters,
    redriveDeadLetters: noDeadLetters,
  };
}
