import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import {
  type DispatchEntry,
  DispatchMessage,
  type DispatchQueue,
  type SendBatchResult,
} from '../../domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../domain/scheduling/scheduling-settings';

export interface SqsDispatchQueueOptions {
  readonly client: SQSClient;
  /** Read on first use: only the functions that use the queue are given its URL. */
  readonly queueUrl: () => string;
  readonly deadLetterQueueUrl: () => string;
}

/** The SQS adapter of the queue port. */
export function createSqsDispatchQueue({
  client,
  queueUrl,
  deadLetterQueueUrl,
}: SqsDispatchQueueOptions): DispatchQueue {
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

    async deadLetterCount() {
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({
          QueueUrl: deadLetterQueueUrl(),
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return (
        Number(Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
    },

    async redriveDeadLetters(limit) {
      let moved = 0;
      while (moved < limit) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: deadLetterQueueUrl(),
            MaxNumberOfMessages: Math.min(WEBHOOK_QUEUE.sendBatchSize, limit - moved),
            WaitTimeSeconds: 0,
            VisibilityTimeout: 60,
            MessageSystemAttributeNames: ['MessageGroupId'],
          }),
        );
        if (Messages.length === 0) break;
        // An unreadable message (not ours) stays where it is, hidden for a minute, for a human to see.
        const readable = Messages.flatMap((message) => {
          const parsed = DispatchMessage.safeParse(safeJson(message.Body ?? ''));
          return parsed.success ? [{ message, dispatch: parsed.data }] : [];
        });
        // The same run (same dispatch id, so n8n still drops a duplicate), marked as sent back.
        const { failed } = await sendBatch(
          // A fresh set of attempts: the sent-back message is counted from its first receive again.
          readable.map(({ message, dispatch }) => ({
            message: { ...dispatch, trigger: 'redrive', attemptsBefore: 0, deferrals: 0 },
            delaySeconds: 0,
            firm: message.Attributes?.MessageGroupId ?? dispatch.workflowId,
          })),
        );
        const refused = new Set(failed.map((failure) => failure.index));
        const sent = readable.filter((_, index) => !refused.has(index)).map(({ message }) => message);
        if (sent.length > 0) {
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: deadLetterQueueUrl(),
              Entries: sent.map((message, index) => ({
                Id: `d${index}`,
                ReceiptHandle: message.ReceiptHandle ?? '',
              })),
            }),
          );
        }
        moved += sent.length;
        // A refused send stays in the dead-letter queue (visible again after a minute): stop here.
        if (refused.size > 0) break;
      }
      return moved;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
