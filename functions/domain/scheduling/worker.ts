import { MESSAGES } from '../../../shared/messages';
import { mapWithConcurrency } from '../core/concurrency';
import { METRIC, type Metrics, noMetrics } from '../core/metrics';
import type { Logger } from '../core/ports';
import { backoffSeconds } from './back-off';
import {
  type CallEnd,
  type CallEndings,
  type CallOutcome,
  type Dispatches,
  type DispatchMessage,
  DispatchMessage as DispatchMessageSchema,
  type DispatchQueue,
  type EndedCall,
  type Executions,
  type FirmSlot,
  type FirmSlots,
  type SchedulerRuns,
  type SlotRefusal,
} from './ports';
import { FIRM_CALLS, WEBHOOK_QUEUE } from './scheduling-settings';
import { callWorkflowWebhook, type WebhookCallSettings } from './webhook-call';

export interface WorkerDependencies extends WebhookCallSettings {
  readonly dispatches: Dispatches;
  readonly executions: Pick<Executions, 'record'>;
  readonly slots: FirmSlots;
  readonly lastResults: Pick<SchedulerRuns, 'recordOutcome'>;
  /** Where each call's end counts in its automation's health. */
  readonly health: CallEndings;
  readonly queue: DispatchQueue;
  readonly logger: Logger;
  /** Deliveries by outcome and the dispatch lag. @default noMetrics */
  readonly metrics?: Metrics;
}

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

/**
 * The webhook worker: calls the dispatched runs of a batch side by side, records each, and retries
 * what may succeed later with back-off until the dead-letter queue. A run deactivated, deleted,
 * finished or being called is not called; a firm with every slot held gets its run back later,
 * freeing the worker for another. The batch's call ends reach the health once, at the batch's end.
 */
export class WorkerService {
  private readonly executions: Pick<Executions, 'record'>;
  private readonly slots: FirmSlots;
  private readonly health: CallEndings;

  constructor(private readonly deps: WorkerDependencies) {
    this.executions = deps.executions;
    this.slots = deps.slots;
    this.health = deps.health;
  }

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

  /** One run of the batch; a call that ended adds its end to `ends`. */
  private async handleOne(received: ReceivedDispatch, ends: CallEnd[]): Promise<DispatchResult> {
    const dispatch = parseDispatch(received.body);
    if (!dispatch) {
      // Not a message of ours: left to the dead-letter queue rather than dropped unseen.
      this.deps.logger.error('Message illisible dans la file des webhooks', {
        messageId: received.messageId,
      });
      return 'retry';
    }
    // The reads and the firm's slot at once, one round trip instead of two; a run not called after
    // all gives the slot back.
    const taking = dispatch.firm === undefined ? undefined : this.takeSlot(dispatch.firm, received, dispatch);
    const [{ workflow, done: alreadyDone }, early] = await Promise.all([
      this.deps.dispatches.stateOf(dispatch.workflowId, dispatch.dispatchId),
      taking,
    ]).catch(async (error: unknown) => {
      // A read failed: a slot taken meanwhile goes back before the message is retried.
      await this.releaseIfTaken(await taking?.catch(() => undefined));
      throw error;
    });
    const notCalled = async (result: DispatchResult) => {
      await this.releaseIfTaken(early);
      return result;
    };
    if (!workflow) {
      // Deleted with its history: there is no history left to write to, so the log says it.
      this.deps.logger.warn('Exécution annulée : automatisation supprimée', {
        workflowId: dispatch.workflowId,
        dispatchId: dispatch.dispatchId,
      });
      return notCalled('done');
    }
    if (alreadyDone) {
      // SQS delivers a message at least once: a second delivery of a finished run is not called.
      this.deps.logger.info('Exécution déjà terminée : message en double ignoré', {
        workflowId: workflow.id,
        dispatchId: dispatch.dispatchId,
      });
      return notCalled('done');
    }

    const attempt = (dispatch.attemptsBefore ?? 0) + Math.max(1, received.receiveCount);
    if (attempt > WEBHOOK_QUEUE.maxReceiveCount) {
      // A sent-back message whose last attempt failed: its own receive count is still short of the
      // dead-letter rule, so it is handed back unseen until SQS moves it there. Never called again.
      await this.giveBack(received, dispatch, 0);
      return notCalled('retry');
    }
    if (dispatch.trigger !== 'redrive' && (!workflow.active || !workflow.cronEnabled)) {
      // Switched off since it was queued (perhaps between two attempts): not called, and its
      // history says why rather than the run vanishing. A run an admin sent back is his decision:
      // called whatever the switches say ('Relancer les exécutions en échec', `DeadLetterService`).
      const message = workflow.active
        ? MESSAGES.execution.cancelledUnscheduled
        : MESSAGES.execution.cancelledInactive;
      await this.executions.record({
        workflowId: workflow.id,
        dispatchId: dispatch.dispatchId,
        trigger: dispatch.trigger,
        startedAt: this.deps.clock.now().toISOString(),
        durationMs: 0,
        httpStatus: null,
        outcome: 'cancelled',
        message,
        attempt,
      });
      this.deps.logger.info('Exécution annulée', {
        workflowId: workflow.id,
        dispatchId: dispatch.dispatchId,
        message,
      });
      await this.reportToRun(dispatch, { status: 'failed', message });
      return notCalled('done');
    }
    // A message queued before it named its firm takes the slot now, from the workflow's owner.
    const firm = dispatch.firm ?? workflow.lawyerEmail;
    const slot = early === undefined ? await this.takeSlot(firm, received, dispatch) : early;
    if ('refused' in slot) {
      return slot.refused === 'full'
        ? this.defer(received, dispatch, firm, attempt)
        : this.leaveToHolder(received, dispatch, slot.holder);
    }
    let call: Awaited<ReturnType<typeof callWorkflowWebhook>>;
    try {
      call = await callWorkflowWebhook(
        workflow,
        { trigger: dispatch.trigger, dueAt: dispatch.dueAt, messageId: dispatch.dispatchId },
        this.deps,
      );
    } catch (error) {
      // Only a configuration error (the signing secret) ends here: the slot goes back, the run is retried.
      await this.releaseSlot(slot);
      throw error;
    }
    const { startedAt, outcome } = call;
    const retry =
      !outcome.ok && outcome.retryable
        ? attempt >= WEBHOOK_QUEUE.maxReceiveCount
          ? ('dead_letter' as const)
          : ('scheduled' as const)
        : undefined;
    const recorded = this.executions.record({
      workflowId: workflow.id,
      dispatchId: dispatch.dispatchId,
      trigger: dispatch.trigger,
      startedAt,
      durationMs: Math.round(outcome.durationMs),
      httpStatus: outcome.httpStatus,
      outcome: outcome.ok ? 'success' : 'failed',
      message: outcome.message,
      attempt,
      ...(retry ? { retry } : {}),
    });
    const ended: CallOutcome = outcome.ok
      ? 'succeeded'
      : retry === 'scheduled'
        ? 'retried'
        : retry === 'dead_letter'
          ? 'deadLettered'
          : 'failed';
    const endedCall: EndedCall = {
      trigger: dispatch.trigger,
      outcome: ended,
      attempt,
      startedAt,
      durationMs: outcome.durationMs,
      dueAt: dispatch.dueAt,
      httpStatus: outcome.httpStatus,
      message: outcome.message,
    };
    // Every write of the call's end at once; only the history decides the message's fate, the others
    // never throw. The slot goes back with the call counted in its lawyer's hour (one write of the
    // firm's item); the rest of the health waits for the batch's end.
    const [firstEnd, ownerCounted] = await Promise.all([
      recorded,
      this.releaseSlot(slot, firm === workflow.lawyerEmail ? endedCall : undefined),
      retry === 'scheduled'
        ? undefined
        : this.reportToRun(dispatch, { status: outcome.ok ? 'success' : 'failed', message: outcome.message }),
    ]);
    if (firstEnd) ends.push({ workflow, call: endedCall, ownerCounted });
    else {
      // Another delivery of this run recorded its end while this one called (the window the slot's
      // lease leaves open): the history and the health keep the first end only.
      this.deps.logger.info('Exécution déjà terminée : appel en double non enregistré', {
        workflowId: workflow.id,
        dispatchId: dispatch.dispatchId,
      });
    }
    // A success is in its history item and the metrics: its line is debug (Lambda logs at INFO, and
    // the logs are billed by the byte at every run); a failure's stays for whoever looks into it.
    const called = {
      workflowId: workflow.id,
      dispatchId: dispatch.dispatchId,
      attempt,
      httpStatus: outcome.httpStatus,
      durationMs: outcome.durationMs,
      ok: outcome.ok,
      failure: outcome.failure,
      retry,
    };
    if (outcome.ok) this.deps.logger.debug('Webhook appelé', called);
    else this.deps.logger.info('Webhook appelé', called);
    const metrics = this.deps.metrics ?? noMetrics;
    if (attempt === 1)
      metrics.duration(METRIC.dispatchLag, Date.parse(startedAt) - Date.parse(dispatch.dueAt));
    metrics.count(
      outcome.ok
        ? METRIC.deliverySucceeded
        : retry === 'scheduled'
          ? METRIC.deliveryRetried
          : retry === 'dead_letter'
            ? METRIC.deliveryDeadLettered
            : METRIC.deliveryFailed,
    );
    if (!retry) return 'done';

    // After the last attempt the message goes to the dead-letter queue at its next receive: now.
    await this.giveBack(
      received,
      dispatch,
      retry === 'scheduled' ? backoffSeconds(attempt, outcome.retryAfterSeconds) : 0,
    );
    return 'retry';
  }

  /** Hands the message back to the queue, visible again after `delay` seconds. */
  private async giveBack(received: ReceivedDispatch, dispatch: DispatchMessage, delay: number) {
    await this.deps.queue.changeVisibility(received.receiptHandle, delay).catch((error: unknown) => {
      // The queue's own visibility time-out then applies: a later retry, not a lost one.
      this.deps.logger.warn('Délai de nouvel essai non appliqué', {
        dispatchId: dispatch.dispatchId,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
  }

  /**
   * Every slot of the firm is held: the run goes back to the queue as a new message, delayed
   * (5 s, then twice as long each time, at most a minute), carrying the attempts made so far. Should
   * that send fail, the message itself is handed back with the same delay (its receive count then
   * counts this turn; a rare case, and the run is still not lost).
   */
  private async defer(
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
    const { failed } = await this.deps.queue.sendBatch([
      { message: { ...dispatch, attemptsBefore: attempt - 1, deferrals }, delaySeconds: delay, firm },
    ]);
    this.deps.logger.info('Exécution différée : appels du cabinet au maximum', {
      workflowId: dispatch.workflowId,
      dispatchId: dispatch.dispatchId,
      delaySeconds: delay,
      requeued: failed.length === 0,
    });
    if (failed.length === 0) return 'done';
    await this.giveBack(received, dispatch, delay);
    return 'retry';
  }

  /**
   * Another delivery of this run holds a slot: a copy in another message is dropped (the holder's stays
   * queued until its run ends); the same message received again is handed back, as deleting it would
   * delete the holder's.
   */
  private async leaveToHolder(
    received: ReceivedDispatch,
    dispatch: DispatchMessage,
    holder: string,
  ): Promise<DispatchResult> {
    const sameMessage = holder === received.messageId;
    this.deps.logger.info('Exécution en cours : message en double non appelé', {
      workflowId: dispatch.workflowId,
      dispatchId: dispatch.dispatchId,
      handedBack: sameMessage,
    });
    if (!sameMessage) return 'done';
    await this.giveBack(received, dispatch, FIRM_CALLS.deferFirstSeconds);
    return 'retry';
  }

  /** Takes one of the firm's call slots for this message's run, or says why not. */
  private async takeSlot(
    firm: string,
    received: ReceivedDispatch,
    dispatch: DispatchMessage,
  ): Promise<FirmLease | SlotRefusal> {
    const now = this.deps.clock.now();
    const slot = await this.slots.take(
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

  /** Gives back a slot taken ahead of the checks, when one was. */
  private async releaseIfTaken(taken: FirmLease | SlotRefusal | undefined): Promise<void> {
    if (taken && !('refused' in taken)) await this.releaseSlot(taken);
  }

  /** Gives the slot back; true when the call that held it was counted in its lawyer's hour with it. */
  private async releaseSlot({ firm, slot }: FirmLease, ended?: EndedCall): Promise<boolean> {
    return this.slots.release(firm, slot, ended).catch((error: unknown) => {
      // The lease expires by itself (FIRM_CALLS.leaseSeconds): the firm has one slot less till then.
      this.deps.logger.warn('Créneau du cabinet non rendu', {
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
      return false;
    });
  }

  private async recordHealth(ends: readonly CallEnd[]): Promise<void> {
    if (ends.length === 0) return;
    await this.health.callsEnded(ends).catch((error: unknown) => {
      this.deps.logger.error('Santé de l’automatisation non mise à jour', {
        workflowIds: ends.map(({ workflow }) => workflow.id),
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
  }

  private async reportToRun(
    dispatch: DispatchMessage,
    outcome: { readonly status: 'success' | 'failed'; readonly message: string },
  ): Promise<void> {
    if (!dispatch.run) return;
    await this.deps.lastResults
      .recordOutcome(dispatch.run, dispatch.workflowId, outcome)
      .catch((error: unknown) => {
        // The history has it already; the last result only misses this one line.
        this.deps.logger.warn('Résultat non reporté au planificateur', {
          workflowId: dispatch.workflowId,
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      });
  }
}

/** A firm's call slot held by this worker. */
interface FirmLease {
  readonly firm: string;
  readonly slot: FirmSlot;
}

function parseDispatch(body: string): DispatchMessage | null {
  try {
    const parsed = DispatchMessageSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
