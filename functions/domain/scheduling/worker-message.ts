import type { Logger } from '../core/ports';
import { type DispatchMessage, DispatchMessage as DispatchMessageSchema, type DispatchQueue } from './ports';

/* The worker's first and last step: reading a dispatch message, and handing it back to the queue. */

/** One received queue message, as the Lambda event source (or the local poller) hands it over. */
export interface ReceivedDispatch {
  readonly messageId: string;
  readonly body: string;
  readonly receiptHandle: string;
  /** SQS's ApproximateReceiveCount: 1 on the first delivery. */
  readonly receiveCount: number;
}

/**
 * What becomes of the message: 'done' deletes it (delivered, finally failed, or nothing to do);
 * 'retry' gives it back to the queue, which delivers it again after the back-off or, after the
 * last attempt, moves it to the dead-letter queue.
 */
export type DispatchResult = 'done' | 'retry';

/** What handing a message back takes: the queue, and the log should the queue refuse. */
export interface MessageReturn {
  readonly queue: DispatchQueue;
  readonly logger: Logger;
}

/** The run a message dispatches, or null when the message is not one of ours. */
export function readDispatch(body: string): DispatchMessage | null {
  try {
    const parsed = DispatchMessageSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Not a message of ours: left to the dead-letter queue rather than dropped unseen. */
export function leaveUnreadable(logger: Logger, received: ReceivedDispatch): DispatchResult {
  logger.error('Message illisible dans la file des webhooks', { messageId: received.messageId });
  return 'retry';
}

/** The attempt this delivery makes: those made before it was sent again, and its receives. */
export function attemptOf(received: ReceivedDispatch, dispatch: DispatchMessage): number {
  return (dispatch.attemptsBefore ?? 0) + Math.max(1, received.receiveCount);
}

/** Hands the message back to the queue, visible again after `delay` seconds. */
export async function handBack(
  deps: MessageReturn,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
  delay: number,
): Promise<void> {
  await deps.queue.changeVisibility(received.receiptHandle, delay).catch((error: unknown) => {
    // The queue's own visibility time-out then applies: a later retry, not a lost one.
    deps.logger.warn('Délai de nouvel essai non appliqué', {
      dispatchId: dispatch.dispatchId,
      errorName: error instanceof Error ? error.name : 'inconnu',
    });
  });
}
