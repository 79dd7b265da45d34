import { METRIC, type MetricName, type Metrics, noMetrics } from '../core/metrics';
import type { Logger } from '../core/ports';
import type { WorkflowRecord } from '../directory/ports';
import { backoffSeconds } from './back-off';
import type {
  CallEnd,
  CallOutcome,
  DeliveryOutcome,
  DispatchMessage,
  EndedCall,
  Executions,
  SchedulerRuns,
} from './ports';
import { WEBHOOK_QUEUE } from './scheduling-settings';
import { callWorkflowWebhook, type WebhookCallSettings } from './webhook-call';
import { type DispatchResult, handBack, type MessageReturn, type ReceivedDispatch } from './worker-message';
import { type FirmLease, releaseSlot, type SlotKeeping } from './worker-slot';

/* The worker's steps from the call on: the webhook call, its end's writes, its log and metrics, its retry. */

/** What reporting a run's end to the scheduler run that listed it takes. */
export interface RunReporting {
  readonly lastResults: Pick<SchedulerRuns, 'recordOutcome'>;
  readonly logger: Logger;
}

/** What recording a call's end takes: its history, its slot, its scheduler run, its metrics. */
export interface CallEndRecording extends SlotKeeping, RunReporting {
  readonly executions: Pick<Executions, 'record'>;
  /** @default noMetrics */
  readonly metrics?: Metrics;
}

/** A run cleared for its call, holding its firm's slot. */
export interface CallableRun {
  readonly workflow: WorkflowRecord;
  readonly dispatch: DispatchMessage;
  readonly attempt: number;
  readonly firm: string;
  readonly lease: FirmLease;
}

/** A run whose call is over, and what follows: another attempt, the dead-letter queue, or none. */
export interface CalledRun extends CallableRun {
  readonly outcome: DeliveryOutcome;
  readonly retry: 'scheduled' | 'dead_letter' | undefined;
  /** The call's end as the health and the lawyer's hour count it. */
  readonly ended: EndedCall;
}

/** The metric each end counts in. */
const DELIVERY_METRIC: Readonly<Record<CallOutcome, MetricName>> = {
  succeeded: METRIC.deliverySucceeded,
  retried: METRIC.deliveryRetried,
  deadLettered: METRIC.deliveryDeadLettered,
  failed: METRIC.deliveryFailed,
};

/** The webhook call; only a configuration error (the signing secret) throws, once the slot is back. */
export async function callWebhook(
  deps: WebhookCallSettings & SlotKeeping,
  run: CallableRun,
): Promise<CalledRun> {
  const { workflow, dispatch, attempt } = run;
  let call: Awaited<ReturnType<typeof callWorkflowWebhook>>;
  try {
    call = await callWorkflowWebhook(
      workflow,
      { trigger: dispatch.trigger, dueAt: dispatch.dueAt, messageId: dispatch.dispatchId },
      deps,
    );
  } catch (error) {
    await releaseSlot(deps, run.lease);
    throw error;
  }
  const { startedAt, outcome } = call;
  const retry = retryOf(outcome, attempt);
  const ended: EndedCall = {
    trigger: dispatch.trigger,
    outcome: outcomeOf(outcome, retry),
    attempt,
    startedAt,
    durationMs: outcome.durationMs,
    dueAt: dispatch.dueAt,
    httpStatus: outcome.httpStatus,
    message: outcome.message,
  };
  return { ...run, outcome, retry, ended };
}

/** A failure that may succeed later is retried, until the last attempt sends it to the dead letters. */
function retryOf(outcome: DeliveryOutcome, attempt: number): CalledRun['retry'] {
  if (outcome.ok || !outcome.retryable) return undefined;
  return attempt >= WEBHOOK_QUEUE.maxReceiveCount ? 'dead_letter' : 'scheduled';
}

function outcomeOf(outcome: DeliveryOutcome, retry: CalledRun['retry']): CallOutcome {
  if (outcome.ok) return 'succeeded';
  if (retry === 'scheduled') return 'retried';
  return retry === 'dead_letter' ? 'deadLettered' : 'failed';
}

/**
 * Every write of the call's end at once; only the history decides the message's fate, the others
 * never throw. The slot goes back with the call counted in its lawyer's hour (one write of the
 * firm's item); the rest of the health waits for the batch's end, which gets the end returned here.
 */
export async function recordCallEnd(deps: CallEndRecording, run: CalledRun): Promise<CallEnd | undefined> {
  const { workflow, dispatch, outcome, ended } = run;
  const [firstEnd, ownerCounted] = await Promise.all([
    deps.executions.record({
      workflowId: workflow.id,
      dispatchId: dispatch.dispatchId,
      trigger: dispatch.trigger,
      startedAt: ended.startedAt,
      durationMs: Math.round(outcome.durationMs),
      httpStatus: outcome.httpStatus,
      outcome: outcome.ok ? 'success' : 'failed',
      message: outcome.message,
      attempt: run.attempt,
      ...(run.retry ? { retry: run.retry } : {}),
    }),
    releaseSlot(deps, run.lease, run.firm === workflow.lawyerEmail ? ended : undefined),
    run.retry === 'scheduled'
      ? undefined
      : reportToRun(deps, dispatch, { status: outcome.ok ? 'success' : 'failed', message: outcome.message }),
  ]);
  if (firstEnd) return { workflow, call: ended, ownerCounted };
  // Another delivery of this run recorded its end while this one called (the window the slot's
  // lease leaves open): the history and the health keep the first end only.
  deps.logger.info('Exécution déjà terminée : appel en double non enregistré', {
    workflowId: workflow.id,
    dispatchId: dispatch.dispatchId,
  });
  return undefined;
}

/**
 * The call's log line and metrics. A success is in its history item and the metrics: its line is
 * debug (Lambda logs at INFO, and the logs are billed by the byte at every run); a failure's stays.
 */
export function logAndCount(deps: Pick<CallEndRecording, 'logger' | 'metrics'>, run: CalledRun): void {
  const { workflow, dispatch, attempt, outcome, retry } = run;
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
  if (outcome.ok) deps.logger.debug('Webhook appelé', called);
  else deps.logger.info('Webhook appelé', called);
  const metrics = deps.metrics ?? noMetrics;
  if (attempt === 1)
    metrics.duration(METRIC.dispatchLag, Date.parse(run.ended.startedAt) - Date.parse(dispatch.dueAt));
  metrics.count(DELIVERY_METRIC[run.ended.outcome]);
}

/** A call to try again: after its back-off, or after the last attempt to the dead letters at once. */
export async function retryLater(
  deps: MessageReturn,
  received: ReceivedDispatch,
  run: CalledRun,
): Promise<DispatchResult> {
  const delay = run.retry === 'scheduled' ? backoffSeconds(run.attempt, run.outcome.retryAfterSeconds) : 0;
  await handBack(deps, received, run.dispatch, delay);
  return 'retry';
}

/** The run's end on the line of the scheduler run that listed it, when one did. */
export async function reportToRun(
  deps: RunReporting,
  dispatch: DispatchMessage,
  outcome: { readonly status: 'success' | 'failed'; readonly message: string },
): Promise<void> {
  if (!dispatch.run) return;
  await deps.lastResults.recordOutcome(dispatch.run, dispatch.workflowId, outcome).catch((error: unknown) => {
    // The history has it already; the last result only misses this one line.
    deps.logger.warn('Résultat non reporté au planificateur', {
      workflowId: dispatch.workflowId,
      errorName: error instanceof Error ? error.name : 'inconnu',
    });
  });
}
