import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { DispatchMessage, type DispatchQueue } from '../../domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../domain/scheduling/scheduling-settings';
import { createSqsQueueSender, type SqsQueueSenderOptions } from './queue-sender';

export interface SqsDispatchQueueOptions extends SqsQueueSenderOptions {
  readonly deadLetterQueueUrl: () => string;
}

/** The SQS adapter of the queue port, its dead letters included (their count, their resend). */
export function createSqsDispatchQueue(options: SqsDispatchQueueOptions): DispatchQueue {
  const { client, deadLetterQueueUrl } = options;
  const sender = createSqsQueueSender(options);
  const { sendBatch } = sender;
  return {
    ...sender,

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

    async redriveDeadLetters(limit, verdict) {
      let moved = 0;
      let dropped = 0;
      while (moved + dropped < limit) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: deadLetterQueueUrl(),
            MaxNumberOfMessages: Math.min(WEBHOOK_QUEUE.sendBatchSize, limit - moved - dropped),
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
        const verdicts = await Promise.all(readable.map(({ dispatch }) => verdict(dispatch)));
        const toSend = readable.filter((_, index) => verdicts[index] === 'send');
        const toDrop = readable
          .filter((_, index) => verdicts[index] === 'drop')
          .map(({ message }) => message);
        // The same run (same dispatch id, so n8n still drops a duplicate), marked as sent back.
        const { failed } = await sendBatch(
          // A fresh set of attempts: the sent-back message is counted from its first receive again.
          toSend.map(({ message, dispatch }) => ({
            message: { ...dispatch, trigger: 'redrive', attemptsBefore: 0, deferrals: 0 },
            delaySeconds: 0,
            firm: message.Attributes?.MessageGroupId ?? dispatch.workflowId,
          })),
        );
        const refused = new Set(failed.map((failure) => failure.index));
        const sent = toSend.filter((_, index) => !refused.has(index)).map(({ message }) => message);
        const done = [...sent, ...toDrop];
        if (done.length > 0) {
          await client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: deadLetterQueueUrl(),
              Entries: done.map((message, index) => ({
                Id: `d${index}`,
                ReceiptHandle: message.ReceiptHandle ?? '',
              })),
            }),
          );
        }
        moved += sent.length;
        dropped += toDrop.length;
        // A refused send stays in the dead-letter queue (visible again after a minute): stop here.
        if (refused.size > 0) break;
      }
      return { moved, dropped };
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
