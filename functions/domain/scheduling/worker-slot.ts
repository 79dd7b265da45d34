import type { Clock, Logger } from '../core/ports';
import type { DispatchMessage, EndedCall, FirmSlot, FirmSlots, SlotRefusal } from './ports';
import { FIRM_CALLS } from './scheduling-settings';
import { type DispatchResult, handBack, type MessageReturn, type ReceivedDispatch } from './worker-message';

/* The worker's step around a firm's call slots: taking one, giving it back, waiting when none is free. */

/** What holding a firm's call slots takes: its slots, the time of the lease, the log. */
export interface SlotKeeping {
  readonly slots: FirmSlots;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A firm's call slot held by this worker. */
export interface FirmLease {
  readonly firm: string;
  readonly slot: FirmSlot;
}

/** A slot taken, or why not. */
export type SlotTaken = FirmLease | SlotRefusal;

/** Takes one of the firm's call slots for this message's run, or says why not. */
export async function takeSlot(
  deps: SlotKeeping,
  firm: string,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
): Promise<SlotTaken> {
  const now = deps.clock.now();
  const slot = await deps.slots.take(
    firm,
    {
      holder: received.messageId,
      dispatch: dispatch.dispatchId,
      until: new Date(now.getTime() + FIRM_CALLS.leaseSeconds * 1000),
    },
    now,
    FIRM_CALLS.maxConcurrent,
  );
  return 'refused' in slot ? slot : { firm, slot };
}

/** Gives the slot back; true when the call that held it was counted in its lawyer's hour with it. */
export async function releaseSlot(
  deps: SlotKeeping,
  { firm, slot }: FirmLease,
  ended?: EndedCall,
): Promise<boolean> {
  return deps.slots.release(firm, slot, ended).catch((error: unknown) => {
    // The lease expires by itself (FIRM_CALLS.leaseSeconds): the firm has one slot less till then.
    deps.logger.warn('Créneau du cabinet non rendu', {
      errorName: error instanceof Error ? error.name : 'inconnu',
    });
    return false;
  });
}

/** Gives back a slot taken ahead of the checks, when one was. */
export async function releaseIfTaken(deps: SlotKeeping, taken: SlotTaken | undefined): Promise<void> {
  if (taken && !('refused' in taken)) await releaseSlot(deps, taken);
}

/** No slot for this run: every one of the firm's is held, or another delivery of it holds one. */
export function waitForSlot(
  deps: MessageReturn,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
  refusal: SlotRefusal,
  { firm, attempt }: { readonly firm: string; readonly attempt: number },
): Promise<DispatchResult> {
  return refusal.refused === 'full'
    ? deferRun(deps, received, dispatch, firm, attempt)
    : leaveToHolder(deps, received, dispatch, refusal.holder);
}

/**
 * Every slot of the firm is held: the run goes back to the queue as a new message, delayed
 * (5 s, then twice as long each time, at most a minute), carrying the attempts made so far. Should
 * that send fail, the message itself is handed back with the same delay (its receive count then
 * counts this turn; a rare case, and the run is still not lost).
 */
async function deferRun(
  deps: MessageReturn,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
  firm: string,
  attempt: number,
): Promise<DispatchResult> {
  const deferrals = (dispatch.deferrals ?? 0) + 1;
  const delay = Math.min(
    FIRM_CALLS.deferMaxSeconds,
    FIRM_CALLS.deferFirstSeconds * 2 ** Math.min(deferrals - 1, 10),
  );
  const { failed } = await deps.queue.sendBatch([
    { message: { ...dispatch, attemptsBefore: attempt - 1, deferrals }, delaySeconds: delay, firm },
  ]);
  deps.logger.info('Exécution différée : appels du cabinet au maximum', {
    workflowId: dispatch.workflowId,
    dispatchId: dispatch.dispatchId,
    delaySeconds: delay,
    requeued: failed.length === 0,
  });
  if (failed.length === 0) return 'done';
  await handBack(deps, received, dispatch, delay);
  return 'retry';
}

/**
 * Another delivery of this run holds a slot: a copy in another message is dropped (the holder's stays
 * queued until its run ends); the same message received again is handed back, as deleting it would
 * delete the holder's.
 */
async function leaveToHolder(
  deps: MessageReturn,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
  holder: string,
): Promise<DispatchResult> {
  const sameMessage = holder === received.messageId;
  deps.logger.info('Exécution en cours : message en double non appelé', {
    workflowId: dispatch.workflowId,
    dispatchId: dispatch.dispatchId,
    handedBack: sameMessage,
  });
  if (!sameMessage) return 'done';
  await handBack(deps, received, dispatch, FIRM_CALLS.deferFirstSeconds);
  return 'retry';
}
