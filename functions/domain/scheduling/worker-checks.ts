import { MESSAGES } from '../../../shared/messages';
import type { WorkflowRecord } from '../directory/ports';
import type { Dispatches, DispatchMessage, DispatchState, Executions } from './ports';
import { WEBHOOK_QUEUE } from './scheduling-settings';
import { type RunReporting, reportToRun } from './worker-call';
import {
  attemptOf,
  type DispatchResult,
  handBack,
  type MessageReturn,
  type ReceivedDispatch,
} from './worker-message';
import { releaseIfTaken, type SlotKeeping, type SlotTaken, takeSlot } from './worker-slot';

/* The worker's steps before a call: the run's reads and its firm's slot at once, then the refusals. */

/** What the checks before a call take: the run's state, its firm's slots, its history, the queue. */
export interface RunChecks extends SlotKeeping, MessageReturn, RunReporting {
  readonly dispatches: Dispatches;
  readonly executions: Pick<Executions, 'record'>;
}

/** A run cleared for its call at this attempt, or what becomes of its message when it is not called. */
export type Checked =
  | { readonly workflow: WorkflowRecord; readonly attempt: number }
  | { readonly notCalled: DispatchResult };

/**
 * The reads and the firm's slot at once, one round trip instead of two (when the message names its
 * firm). A read that fails gives back a slot taken meanwhile before the message is retried.
 */
export async function readRunAndSlot(
  deps: Pick<RunChecks, 'dispatches' | keyof SlotKeeping>,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
): Promise<{ readonly state: DispatchState; readonly early: SlotTaken | undefined }> {
  const taking = dispatch.firm === undefined ? undefined : takeSlot(deps, dispatch.firm, received, dispatch);
  const [state, early] = await Promise.all([
    deps.dispatches.stateOf(dispatch.workflowId, dispatch.dispatchId),
    taking,
  ]).catch(async (error: unknown) => {
    await releaseIfTaken(deps, await taking?.catch(() => undefined));
    throw error;
  });
  return { state, early };
}

/**
 * Whether the run is called: not when its automation was deleted, its run already ended, its
 * attempts are spent, or it was switched off since it was queued. The caller gives back the slot.
 */
export async function checkBeforeCall(
  deps: RunChecks,
  received: ReceivedDispatch,
  dispatch: DispatchMessage,
  { workflow, done }: DispatchState,
): Promise<Checked> {
  const ids = { workflowId: dispatch.workflowId, dispatchId: dispatch.dispatchId };
  if (!workflow) {
    // Deleted with its history: there is no history left to write to, so the log says it.
    deps.logger.warn('Exécution annulée : automatisation supprimée', ids);
    return { notCalled: 'done' };
  }
  if (done) {
    // SQS delivers a message at least once: a second delivery of a finished run is not called.
    deps.logger.info('Exécution déjà terminée : message en double ignoré', ids);
    return { notCalled: 'done' };
  }
  const attempt = attemptOf(received, dispatch);
  if (attempt > WEBHOOK_QUEUE.maxReceiveCount) {
    // A sent-back message whose last attempt failed: its own receive count is still short of the
    // dead-letter rule, so it is handed back unseen until SQS moves it there. Never called again.
    await handBack(deps, received, dispatch, 0);
    return { notCalled: 'retry' };
  }
  if (dispatch.trigger !== 'redrive' && (!workflow.active || !workflow.cronEnabled)) {
    await cancelSwitchedOff(deps, workflow, dispatch, attempt);
    return { notCalled: 'done' };
  }
  return { workflow, attempt };
}

/**
 * Switched off since it was queued (perhaps between two attempts): not called, and its history says
 * why rather than the run vanishing. A run an admin sent back is his decision: called whatever the
 * switches say ('Relancer les exécutions en échec', `DeadLetterService`).
 */
async function cancelSwitchedOff(
  deps: RunChecks,
  workflow: WorkflowRecord,
  dispatch: DispatchMessage,
  attempt: number,
): Promise<void> {
  const message = workflow.active
    ? MESSAGES.execution.cancelledUnscheduled
    : MESSAGES.execution.cancelledInactive;
  await deps.executions.record({
    workflowId: workflow.id,
    dispatchId: dispatch.dispatchId,
    trigger: dispatch.trigger,
    startedAt: deps.clock.now().toISOString(),
    durationMs: 0,
    httpStatus: null,
    outcome: 'cancelled',
    message,
    attempt,
  });
  deps.logger.info('Exécution annulée', {
    workflowId: workflow.id,
    dispatchId: dispatch.dispatchId,
    message,
  });
  await reportToRun(deps, dispatch, { status: 'failed', message });
}
