import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import * as z from 'zod';

import { IsoTimestamp } from '../../../shared/schemas/common';
import { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import { WEBHOOK_QUEUE } from '../../domain/scheduling/scheduling-settings';

/** One due run on its way to the worker (the SQS message body). */
export const DispatchMessage = z.object({
  workflowId: z.string().min(1),
  /** When the run was due; the webhook body carries it. */
  dueAt: IsoTimestamp,
  /** The same for every attempt of this run: the webhook-id header, so n8n can drop duplicates. */
  dispatchId: z.string().min(1),
  trigger: ExecutionTrigger,
  /**
   * The scheduler run that queued it (its kind and time, and for a minute tick the due-index shard
   * that listed it), so that its outcome reaches that run's result.
   */
  run: z
    .object({
      kind: z.enum(['schedule', 'manual']),
      at: IsoTimestamp,
      shard: z.number().int().min(0).optional(),
    })
    .optional(),
  /**
   * Calls already made for this run by earlier messages: a run sent back because its firm's call
   * slots were all held travels as a new message, whose receive count starts again at 1.
   */
  attemptsBefore: z.number().int().min(0).optional(),
  /** How many times the run was sent back for want of a free slot of its firm (its next delay). */
  deferrals: z.number().int().min(0).optional(),
  /**
   * The firm (the entry's `firm`, written by `sendBatch`): the worker takes one of its call slots
   * while it reads the workflow, instead of after. Absent from messages queued before it was added.
   */
  firm: z.string().min(1).optional(),
});
export type DispatchMessage = z.infer<typeof DispatchMessage>;

/** A message to send, with its delay (look-ahead: a run due within the next minute). */
export interface DispatchEntry {
  readonly message: DispatchMessage;
  readonly delaySeconds: number;
  /**
   * The firm the run belongs to (the workflow owner's e-mail): the SQS message group, by which a
   * fair queue tells tenants apart and serves the quiet ones first when one firm builds a backlog.
   */
  readonly firm: string;
}

/** The entries of a batch SQS did not take, by position, with the reason for the logs. */
export interface SendBatchResult {
  readonly failed: readonly { readonly index: number; readonly reason: string }[];
}

/**
 * The queue port of the scheduling services: SQS in AWS and locally (fauxqs), so the same code
 * runs in both.
 */
export interface DispatchQueue {
  /** Sends at most ten messages in one call. Never throws for a refused entry: it is reported. */
  sendBatch(entries: readonly DispatchEntry[]): Promise<SendBatchResult>;
  /** Makes a received message visible again after `seconds` (the retry back-off). */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
  /** How many messages wait in the dead-letter queue (approximate, as SQS counts). */
  deadLetterCount(): Promise<number>;
  /** Moves up to `limit` dead-lettered messages back to the queue for another try; returns how many. */
  redriveDeadLetters(limit: number): Promise<number>;
}

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
