import { mapWithConcurrency } from '../core/concurrency';
import type { CallEnd, CallEndings } from './ports';
import { WEBHOOK_QUEUE } from './scheduling-settings';
import type { WebhookCallSettings } from './webhook-call';
import { type CallEndRecording, callWebhook, logAndCount, recordCallEnd, retryLater } from './worker-call';
import { checkBeforeCall, type RunChecks, readRunAndSlot } from './worker-checks';
import { type DispatchResult, leaveUnreadable, type ReceivedDispatch, readDispatch } from './worker-message';
import { releaseIfTaken, takeSlot, waitForSlot } from './worker-slot';

export interface WorkerDependencies extends WebhookCallSettings, RunChecks, CallEndRecording {
  /** Where each call's end counts in its automation's health. */
  readonly health: CallEndings;
}

/**
 * The webhook worker: calls the dispatched runs of a batch side by side, records each, and retries
 * what may succeed later with back-off until the dead-letter queue. A run deactivated, deleted,
 * finished or being called is not called; a firm with every slot held gets its run back later,
 * freeing the worker for another. The batch's call ends reach the health once, at the batch's end.
 */
export class WorkerService {
  constructor(private readonly deps: WorkerDependencies) {}

  /**
   * Handles an invocation's runs side by side (at most `WEBHOOK_QUEUE.batchSize` at once), then
   * their ends in the health in one go: each result, or the error that interrupted that run.
   */
  async handleBatch(batch: readonly ReceivedDispatch[]): Promise<PromiseSettledResult<DispatchResult>[]> {
    const ends: CallEnd[] = [];
    const results = await mapWithConcurrency(batch, WEBHOOK_QUEUE.batchSize, (received) =>
      this.handleOne(received, ends).then(
        (value): PromiseSettledResult<DispatchResult> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<DispatchResult> => ({ status: 'rejected', reason }),
      ),
    );
    await this.recordHealth(ends);
    return results;
  }

  /** Handles one received run (a batch of one). */
  async handle(received: ReceivedDispatch): Promise<DispatchResult> {
    const [result] = await this.handleBatch([received]);
    if (result?.status === 'fulfilled') return result.value;
    throw result?.reason;
  }

  /**
   * One run of the batch, exactly once as far as a webhook can be: its reads and its firm's slot at
   * once, the checks, the call, its end; a call that ended adds its end to `ends`.
   */
  private async handleOne(received: ReceivedDispatch, ends: CallEnd[]): Promise<DispatchResult> {
    const dispatch = readDispatch(received.body);
    if (!dispatch) return leaveUnreadable(this.deps.logger, received);
    const { state, early } = await readRunAndSlot(this.deps, received, dispatch);
    const checked = await checkBeforeCall(this.deps, received, dispatch, state);
    if ('notCalled' in checked) {
      await releaseIfTaken(this.deps, early);
      return checked.notCalled;
    }
    const { workflow, attempt } = checked;
    // A message queued before it named its firm takes the slot now, from the workflow's owner.
    const firm = dispatch.firm ?? workflow.lawyerEmail;
    const slot = early ?? (await takeSlot(this.deps, firm, received, dispatch));
    if ('refused' in slot) return waitForSlot(this.deps, received, dispatch, slot, { firm, attempt });
    const run = await callWebhook(this.deps, { workflow, dispatch, attempt, firm, lease: slot });
    const end = await recordCallEnd(this.deps, run);
    if (end) ends.push(end);
    logAndCount(this.deps, run);
    return run.retry ? retryLater(this.deps, received, run) : 'done';
  }

  private async recordHealth(ends: readonly CallEnd[]): Promise<void> {
    if (ends.length === 0) return;
    await this.deps.health.callsEnded(ends).catch((error: unknown) => {
      this.deps.logger.error('Santé de l’automatisation non mise à jour', {
        workflowIds: ends.map(({ workflow }) => workflow.id),
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
  }
}
