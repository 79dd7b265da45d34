import * as z from 'zod';
import { IsoTimestamp } from '../../../shared/schemas/common';
import { type Execution, ExecutionTrigger, type SchedulerRun } from '../../../shared/schemas/scheduler';
import type { Page } from '../core/ports';
import type { WorkflowRecord } from '../directory/ports';
import { type RunKind, type RunReference, ShardResult } from './run-results';

/*
 * What the scheduling services need from the world: the webhook queue, the claimers of a run, the
 * webhook delivery, and where the schedule, the firms' slots, the runs and the history are stored.
 */

/**
 * How one call ended, as the counters see it: 'succeeded'; 'retried' (failed, another attempt
 * follows); 'failed' (failed for good); 'deadLettered' (failed, attempts exhausted).
 */
export type CallOutcome = 'succeeded' | 'retried' | 'failed' | 'deadLettered';

/** One call that reached its end, as the worker or a manual run reports it. */
export interface EndedCall {
  readonly trigger: ExecutionTrigger;
  readonly outcome: CallOutcome;
  readonly attempt: number;
  readonly startedAt: string;
  readonly durationMs: number;
  /** The due time of a scheduled run; null for a manual one. */
  readonly dueAt: string | null;
  readonly httpStatus: number | null;
  readonly message: string;
}

/** Where each call's end counts: the automation's health, which watches the deliveries. */
export interface CallEndings {
  /** A batch's call ends at once. */
  callsEnded(ends: readonly CallEnd[]): Promise<void>;
}

/** One call's end, with its workflow as the worker or a manual run read it. */
export interface CallEnd {
  readonly workflow: WorkflowRecord;
  readonly call: EndedCall;
  /** Its lawyer's hour holds it already: added by the write that gave his firm's call slot back. */
  readonly ownerCounted?: boolean;
}

/** A run's completion report, as the health counts it. */
export interface ReceivedReport {
  /** What started the run (a test's report is never counted). */
  readonly trigger: ExecutionTrigger;
  /** When the call that carried the report link started: the report counts in that hour. */
  readonly runStartedAt: string;
  readonly reportedAt: string;
  readonly failed: boolean;
  /** 'Réception OK, traitement en échec : …', for the card, the failing set and the alerts. */
  readonly message: string;
  /** The workflow's reported failures in a row, this one included (0 after a reported success). */
  readonly processingStreak: number;
}

/** How a workflow reports: how many delivered runs, how many reports, how late. */
export interface ReportingHabit {
  readonly delivered: number;
  readonly reported: number;
  /** The p95 bucket's upper bound of its report delays, ms; null without reports. */
  readonly p95DelayMs: number | null;
}

/** Where each completion report counts, and how often and how late a workflow reports: the automation's health. */
export interface ReportCounting {
  reportReceived(workflow: WorkflowRecord, report: ReceivedReport): Promise<void>;
  /** The workflow's reporting over the `windowHours` hours up to `now`'s, this one included. */
  reportingHabit(workflowId: string, now: Date, windowHours: number): Promise<ReportingHabit>;
}

/** One due run on its way to the worker (the queue message's body). */
export const DispatchMessage = z.object({
  workflowId: z.string().min(1),
  /** When the run was due; the webhook body carries it. */
  dueAt: IsoTimestamp,
  /** The same for every attempt of this run: the webhook-id header, so n8n can drop duplicates. */
  dispatchId: z.string().min(1),
  trigger: ExecutionTrigger,
  /** The scheduler run that queued it, so that its outcome reaches that run's result. */
  run: z
    .object({
      kind: z.enum(['schedule', 'manual']),
      at: IsoTimestamp,
      shard: z.number().int().min(0).optional(),
    })
    .optional(),
  /** Calls already made for this run by earlier messages (a run sent back for want of a slot). */
  attemptsBefore: z.number().int().min(0).optional(),
  /** How many times the run was sent back for want of a free slot of its firm (its next delay). */
  deferrals: z.number().int().min(0).optional(),
  /** The firm, so that the worker takes one of its call slots while it reads the workflow. */
  firm: z.string().min(1).optional(),
});
export type DispatchMessage = z.infer<typeof DispatchMessage>;

/** A message to send, with its delay (look-ahead: a run due within the next minute). */
export interface DispatchEntry {
  readonly message: DispatchMessage;
  readonly delaySeconds: number;
  /** The firm the run belongs to (its owner's e-mail): the fair queue's message group. */
  readonly firm: string;
}

/** The entries of a batch the queue did not take, by position, with the reason for the logs. */
export interface SendBatchResult {
  readonly failed: readonly { readonly index: number; readonly reason: string }[];
}

/** The webhook queue and its dead-letter queue: SQS in AWS and locally (fauxqs). */
export interface DispatchQueue {
  /** Sends at most ten messages in one call. Never throws for a refused entry: it is reported. */
  sendBatch(entries: readonly DispatchEntry[]): Promise<SendBatchResult>;
  /** Makes a received message visible again after `seconds` (the retry back-off). */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
  /** How many messages wait in the dead-letter queue (approximate). */
  deadLetterCount(): Promise<number>;
  /**
   * Moves up to `limit` dead-lettered messages back to the queue for another try, each as `verdict`
   * says: 'send' sends it back, 'drop' deletes it (it can never be sent). Returns how many of each.
   */
  redriveDeadLetters(
    limit: number,
    verdict: (dispatch: DispatchMessage) => Promise<'send' | 'drop'>,
  ): Promise<{ readonly moved: number; readonly dropped: number }>;
}

/** One due-index shard of one scheduler run, handed to its claimer. */
export interface ShardClaimRequest {
  readonly shard: number;
  /** The run's time: the coordinator's, the same for every shard and every retry of the run. */
  readonly tickAt: string;
  /** An admin's run ('Déclencher Maintenant', forced or not); absent for the minute tick. */
  readonly trigger?: 'manual' | 'manual_force';
}

/** What a claimer answers: its shard, and what it did there. */
export const ShardClaimAnswer = ShardResult.extend({ shard: z.number().int() });
export type ShardClaimAnswer = z.infer<typeof ShardClaimAnswer>;

/** The claimers of a scheduler run: one function invocation per shard in AWS, in-process elsewhere. */
export interface DueClaimers {
  /** The minute tick: starts one claimer per request without waiting; says which did not start. */
  start(requests: readonly ShardClaimRequest[]): Promise<{ readonly failed: readonly number[] }>;
  /** An admin's run: runs one shard's claimer and waits for its answer; null when it failed. */
  claim(request: ShardClaimRequest): Promise<ShardClaimAnswer | null>;
}

/** What went wrong with a webhook call, for logs and metrics; the user reads `message`. */
export type DeliveryFailure =
  | 'invalid-url'
  | 'private-address'
  | 'timeout'
  | 'network'
  | 'redirect'
  | 'http-status';

export interface DeliveryOutcome {
  readonly ok: boolean;
  /** The answer's status, null when there was none. */
  readonly httpStatus: number | null;
  readonly durationMs: number;
  /** Whether another attempt may succeed: 5xx, 408, 429, time-outs and network errors. */
  readonly retryable: boolean;
  /** The receiver's Retry-After, in seconds, capped; only on retryable answers that carry one. */
  readonly retryAfterSeconds?: number;
  /** The French text of spec §8 for the history and the toast. */
  readonly message: string;
  /** The receiver's answer when it is JSON (n8n's 'Respond to Webhook' data). */
  readonly responseJson?: unknown;
  /** Absent when `ok`. */
  readonly failure?: DeliveryFailure;
}

/** One call of a workflow's webhook. */
export interface WebhookRequest {
  readonly url: string;
  /** The JSON value to send. */
  readonly body: unknown;
  /** The webhook-id header: the same across the attempts of one run. */
  readonly messageId: string;
  /** Unix seconds of this attempt. */
  readonly timestamp: number;
  /** Total time for resolving, connecting, sending and reading the answer. */
  readonly timeoutMs: number;
}

/** Calls webhooks, signed and guarded against private addresses; never throws for what the receiver does. */
export interface WebhookDelivery {
  deliver(request: WebhookRequest): Promise<DeliveryOutcome>;
}

/** The schedule item of a workflow, as the scheduler reads it from the due index. */
export type ScheduleRecord = Pick<
  WorkflowRecord,
  | 'id'
  | 'name'
  | 'lawyerEmail'
  | 'type'
  | 'cronInterval'
  | 'active'
  | 'cronEnabled'
  | 'cronLastRun'
  | 'cronNextRun'
>;

/** What a claim reads of a schedule item: what the due index projects (not the last run). */
export type DueSchedule = Omit<ScheduleRecord, 'cronLastRun'>;

/** A due workflow as read from the due index, with the due time a claim is conditional on. */
export interface DueWorkflow {
  readonly workflow: DueSchedule;
  /** The indexed due time (`NEVER_RAN` for one that never ran). */
  readonly dueAt: string;
  /** When a run last claimed it (the minute tick or a forced run), null if never. */
  readonly claimedAt: string | null;
}

/** The writes that decide when a workflow runs, each conditional so that concurrent runs cannot both win. */
export interface WorkflowRuns {
  /** The workflows of one due-index shard due at or before `bound` (all with no bound). */
  dueInShard(shard: number, bound: Date | null): Promise<DueWorkflow[]>;
  /** One workflow's due slot, read at once after a write that scheduled it; null when not scheduled. */
  dueOf(workflowId: string): Promise<DueWorkflow | null>;
  /**
   * Moves the due slot past the runs claimed, to `nextRun`, and stamps the claim's time, if the slot
   * is still the one read and the workflow still active and scheduled. False when lost.
   */
  claim(read: DueWorkflow, nextRun: string, now: Date): Promise<boolean>;
  /** Gives a claim back (a send failed): the due slot as read; false when it changed since. */
  release(read: DueWorkflow, nextRun: string): Promise<boolean>;
  /**
   * A forced run's claim: stamps its time and clears the last run, unless another run claimed the
   * workflow since `windowStart`; the due slot stays where it is. False when refused.
   */
  claimForced(read: DueWorkflow, now: Date, windowStart: Date): Promise<boolean>;
  /** Gives a forced claim back (its send failed): the claim's stamp as it was read. */
  releaseForced(read: DueWorkflow, now: Date): Promise<boolean>;
  /** Takes the manual-run lock if none is held since `unlockedBefore`; false when it is held. */
  lockManualRun(workflowId: string, now: Date, unlockedBefore: Date): Promise<boolean>;
}

/** What the worker reads before a call: the workflow as it is now, and whether the run already ended. */
export interface DispatchState {
  /** Null when the workflow was deleted since the run was queued. */
  readonly workflow: WorkflowRecord | null;
  /** An earlier delivery of the message reached the run's end. */
  readonly done: boolean;
}

export interface Dispatches {
  /** The workflow and the run's end, in one read. */
  stateOf(workflowId: string, dispatchId: string): Promise<DispatchState>;
}

/** One webhook call to record: everything but the id (and the run's report, kept apart). */
export type NewExecution = Omit<Execution, 'id' | 'report'> & {
  readonly dispatchId: string | null;
  /** A replay: what its body was sent as, so that it can be replayed in turn. */
  readonly replayOf?: SentRun;
};

/** The execution history of each workflow. */
export interface Executions {
  /**
   * Records a call; a dispatched run's end also marks the run done. False when that run's end was
   * recorded already, by another delivery of it.
   */
  record(execution: NewExecution): Promise<boolean>;
  /** One page of a workflow's calls, newest first. */
  listByWorkflow(workflowId: string, limit: number, cursor?: string): Promise<Page<Execution>>;
}

/** A slot taken: which one, and the holder that must give it back. */
export interface FirmSlot {
  readonly slot: number;
  readonly holder: string;
}

/** What a call asks to hold: the message calling, the run it calls, and when the lease ends by itself. */
export interface SlotLease {
  /** The message (its queue message id): the only one that gives the slot back. */
  readonly holder: string;
  /** The run called (its dispatch id): held by one message at a time. */
  readonly dispatch: string;
  readonly until: Date;
}

/** Why no slot was given: every one is held, or one is held by another delivery of the same run. */
export type SlotRefusal =
  | { readonly refused: 'full' }
  | { readonly refused: 'in-flight'; readonly holder: string };

/** The calls of one firm in flight, at most `capacity` at once. */
export interface FirmSlots {
  take(firm: string, lease: SlotLease, now: Date, capacity: number): Promise<FirmSlot | SlotRefusal>;
  /**
   * Gives a slot back, unless its lease expired and another call took it since. Given the call that
   * held it, the same write adds the call to the lawyer's hour where the store keeps it there: true
   * when it did (the health then leaves that count out).
   */
  release(firm: string, taken: FirmSlot, ended?: EndedCall): Promise<boolean>;
}

/** The last scheduler run of each kind, as /admin/settings shows it. */
export interface SchedulerRuns {
  /** A run that stopped before it fanned out: its result as it is. */
  save(run: SchedulerRun): Promise<void>;
  /** The start of a run that fans out: empty until its claimers add their shards. */
  startFanOut(trigger: SchedulerRun['trigger'], at: string, shards: number): Promise<void>;
  /** A claimer starts listing its shard's runs for the run started at `at`. */
  startShard(kind: RunKind, at: string, shard: number): Promise<void>;
  /** One claimer's shard of the run started at `at`: its counts and the runs it lists. */
  addShard(kind: RunKind, at: string, shard: number, result: ShardResult): Promise<void>;
  addShardsNotRun(at: string, shards: number): Promise<void>;
  /** The end of a listed run, reported to the run that listed it. */
  recordOutcome(
    run: RunReference,
    workflowId: string,
    outcome: { readonly status: 'success' | 'failed'; readonly message: string },
  ): Promise<void>;
  lastRuns(): Promise<{ schedule: SchedulerRun | null; manual: SchedulerRun | null }>;
}

/** What a run's body was sent as: its webhook-id, and the body's trigger and due time. */
export interface SentRun {
  readonly webhookId: string;
  readonly trigger: ExecutionTrigger;
  readonly dueAt: string | null;
}
