import { MESSAGES } from '../../../shared/messages';
import { TurnQueue } from '../core/concurrency';
import { METRIC, type Metrics, noMetrics } from '../core/metrics';
import type { Logger } from '../core/ports';
import type { WorkflowRecord } from '../directory/ports';
import { backoffSeconds } from './back-off';
import {
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
 * The webhook worker: calls one dispatched run's webhook, records it, and retries what may succeed
 * later with back-off until the dead-letter queue. A run deactivated, deleted, finished or being called
 * is not called; a firm with every slot held gets its run back later, freeing the worker for another.
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
   * Handles one received run, in its `place` in the invocation's line of calls ({@link CallLine}).
   * Whatever happens, the place is left.
   */
  async handle(received: ReceivedDispatch, place: CallPlace = CallLine.alone()): Promise<DispatchResult> {
    try {
      return await this.handleInPlace(received, place);
    } finally {
      place.leave();
    }
  }

  private async handleInPlace(received: ReceivedDispatch, place: CallPlace): Promise<DispatchResult> {
    const dispatch = parseDispatch(received.body);
    if (!dispatch) {
      // Not a message of ours: left to the dead-letter queue rather than dropped unseen.
      this.deps.logger.error('Message illisible dans la file des webhooks', {
        messageId: received.messageId,
      });
      return 'retry';
    }
    await place.mayPrepare;
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
    if (!workflow.active || !workflow.cronEnabled) {
      // Switched off since it was queued (perhaps between two attempts): not called, and its
      // history says why rather than the run vanishing.
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
      await place.mayCall;
      place.calling();
      call = await callWorkflowWebhook(
        workflow,
        {
          trigger: dispatch.trigger,
          dueAt: dispatch.dueAt,
          messageId: dispatch.dispatchId,
          onSent: place.sent,
        },
        this.deps,
      );
    } catch (error) {
      // Only a configuration error (the signing secret) ends here: the slot goes back, the run is retried.
      await this.releaseSlot(slot);
      throw error;
    } finally {
      place.called();
    }
    await place.nextSent;
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
    // Every write of the call's end at once, one round trip instead of five; only the history decides
    // the message's fate, the others never throw.
    await Promise.all([
      recorded,
      this.releaseSlot(slot),
      retry === 'scheduled'
        ? undefined
        : this.reportToRun(dispatch, { status: outcome.ok ? 'success' : 'failed', message: outcome.message }),
      this.recordHealth(workflow, {
        trigger: dispatch.trigger,
        outcome: ended,
        attempt,
        startedAt,
        durationMs: outcome.durationMs,
        dueAt: dispatch.dueAt,
        httpStatus: outcome.httpStatus,
        message: outcome.message,
      }),
    ]);
    this.deps.logger.info('Webhook appelé', {
      workflowId: workflow.id,
      dispatchId: dispatch.dispatchId,
      attempt,
      httpStatus: outcome.httpStatus,
      durationMs: outcome.durationMs,
      ok: outcome.ok,
      failure: outcome.failure,
      retry,
    });
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

  private async releaseSlot({ firm, slot }: FirmLease): Promise<void> {
    await this.slots.release(firm, slot).catch((error: unknown) => {
      // The lease expires by itself (FIRM_CALLS.leaseSeconds): the firm has one slot less till then.
      this.deps.logger.warn('Créneau du cabinet non rendu', {
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    });
  }

  private async recordHealth(workflow: WorkflowRecord, call: EndedCall): Promise<void> {
    await this.health.callsEnded([{ workflow, call }]).catch((error: unknown) => {
      this.deps.logger.error('Santé de l’automatisation non mise à jour', {
        workflowId: workflow.id,
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

/**
 * One invocation's calls follow one another, so the event source's concurrency caps the calls in
 * flight; each record prepares during the call before it, calls when it ends (or after `waitMs` of a
 * slow one) and writes once the next call is on its way.
 */
export class CallLine {
  private readonly preparing = new TurnQueue();
  private readonly calling = new TurnQueue();
  /** Tells the last place taken that the next record's call is on its way (or never will be). */
  private tellLast: () => void = () => undefined;

  constructor(private readonly waitMs: number = WEBHOOK_QUEUE.callWaitMs) {}

  /** A line of one record: what a worker called outside a batch works in. */
  static alone(): CallPlace {
    const line = new CallLine();
    const place = line.place();
    line.close();
    return place;
  }

  place(): CallPlace {
    const prepare = this.preparing.take();
    const call = this.calling.take();
    const tellPrevious = this.tellLast;
    let tellThis: () => void = () => undefined;
    const nextSent = new Promise<void>((resolve) => {
      tellThis = resolve;
    });
    this.tellLast = tellThis;
    // The call before this one started when this place could prepare: it has `waitMs` from then.
    const slowCallBefore = prepare.ready.then(
      () => new Promise<void>((resolve) => setTimeout(resolve, this.waitMs).unref()),
    );
    return {
      mayPrepare: prepare.ready,
      mayCall: Promise.race([call.ready, slowCallBefore]),
      nextSent,
      calling: prepare.leave,
      sent: tellPrevious,
      called: () => {
        tellPrevious();
        call.leave();
      },
      leave: () => {
        tellPrevious();
        prepare.leave();
        call.leave();
      },
    };
  }

  close(): void {
    this.tellLast();
  }
}

/** A record's place in its {@link CallLine}. Each signal may be given more than once. */
export interface CallPlace {
  /** Resolves once the record before it is being called, or has left the line. */
  readonly mayPrepare: Promise<void>;
  /** Resolves once the record before it has been called or has left the line, or its call is slow. */
  readonly mayCall: Promise<void>;
  /** Resolves once the next record's call is on its way, or that record has left the line. */
  readonly nextSent: Promise<void>;
  /** This record is being called: the next one may prepare. */
  calling(): void;
  /** This record's request is on its way. */
  sent(): void;
  /** This record's call is over: the next one may call. */
  called(): void;
  /** This record is done, called or not. */
  leave(): void;
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
