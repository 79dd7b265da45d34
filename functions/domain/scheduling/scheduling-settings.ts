import { GLOBAL_SCHEDULING } from '../../../shared/constants';

/**
 * Scheduling settings the CDK stack, the local runtime and the handlers must agree on: the CDK
 * stack reads them from here (as it reads the table from `functions/data/table/table-definition.ts`),
 * so the deployed queue, event source and schedule cannot drift from what the code assumes.
 */

/**
 * Due index partitions, one claimer each at every tick: each partition stays far under DynamoDB's
 * per-partition write limit at peak. Changing it moves every item's partition: a migration
 * rewriting the schedule items' `DuePK`.
 */
export const DUE_SHARDS = 64;

/** Time allowed to one webhook call: resolving, connecting, sending and reading the answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The webhook queue and the worker's event source: the worker's time-out covers a batch of calls
 * made side by side, and the visibility time-out is six times it, so a message never reaches a
 * second worker while the first still runs.
 */
export const WEBHOOK_QUEUE = {
  /** Deliveries of one message before SQS moves it to the dead-letter queue. */
  maxReceiveCount: 5,
  /** Lambda time-out of the worker, in seconds. */
  workerTimeoutSeconds: 30,
  /** Queue visibility time-out, in seconds: six times the worker's time-out. */
  visibilityTimeoutSeconds: 180,
  /**
   * Messages per worker invocation, called side by side: an invocation lasts as long as its slowest
   * call, not the sum of them (functions/domain/scheduling/worker.ts `handleBatch`), so its billed
   * time is shared by as many runs as SQS hands over at once (10 at most without a batching window).
   */
  batchSize: 10,
  /**
   * Worker invocations at once (the event source's maximum concurrency) when the stage does not
   * say otherwise: with `batchSize` calls each, the global cap of calls in flight. Spec §3's
   * maxConcurrentWorkflows (5) is a cap per firm (`FIRM_CALLS`), not this one.
   */
  maxConcurrency: 100,
  /** Kept in the dead-letter queue for an admin to look at and send back (14 days, the maximum). */
  deadLetterRetentionSeconds: 14 * 24 * 60 * 60,
  /** The largest SendMessageBatch. */
  sendBatchSize: 10,
} as const;

/**
 * The minute schedule (EventBridge Scheduler) and its target, the scheduled-tick function. A tick
 * older than a minute is worth nothing (the next one reads the same due slots), so retries are few
 * and short; what still fails lands in the schedule's dead-letter queue, under an alarm.
 */
export const SCHEDULER_SCHEDULE = {
  expression: 'rate(1 minute)',
  /** Lambda time-out of the scheduled tick, in seconds. */
  tickTimeoutSeconds: 60,
  /** Target retry policy. */
  maximumRetryAttempts: 2,
  maximumEventAgeSeconds: 60,
} as const;

/** Lambda time-out of execute-webhook: one webhook call and its record, under API Gateway's 30 s. */
export const EXECUTE_WEBHOOK_TIMEOUT_SECONDS = 20;

/**
 * Fair delivery: spec §3's maxConcurrentWorkflows is the calls in flight of one firm; with every
 * slot held a run goes back to the queue delayed, so one firm's slow n8n delays only its own calls.
 */
export const FIRM_CALLS = {
  /** Calls of one firm in flight at once. */
  maxConcurrent: GLOBAL_SCHEDULING.maxConcurrentWorkflows,
  /**
   * How long a slot is held at most: the worker's time-out and a margin, so a worker that died
   * mid-call frees its slot by itself.
   */
  leaseSeconds: WEBHOOK_QUEUE.workerTimeoutSeconds + 5,
  /** The delay of a run sent back because its firm's slots are all held: first, and at most. */
  deferFirstSeconds: 5,
  deferMaxSeconds: 60,
} as const;

/**
 * The minute tick fans out: the coordinator invokes one claimer per due-index shard, each reads its
 * shard's due slots, queues them and then claims them (`SchedulerService.claimShard`).
 */
export const CLAIMS = {
  /**
   * SendMessageBatch calls in flight at once in one claimer; each batch's claims follow it, so at
   * most ten times as many conditional writes are in flight.
   */
  sendConcurrency: 10,
  /** Lambda time-out of a claimer, in seconds: a shard is a few thousand runs at most. */
  claimerTimeoutSeconds: 60,
  /** Executions one claimer lists in the last scheduled result (the counts cover them all). */
  listedPerShard: 10,
} as const;

/**
 * An admin's run waits for its claimers within the API's time-out (API Gateway's limit is 30 s); a
 * claimer still working then finishes in its own invocation and completes the run's last result.
 */
export const ADMIN_RUN = {
  /** The API function's time-out, in seconds. */
  timeoutSeconds: 29,
  /** How long the request waits for the claimers, leaving time to answer. */
  waitSeconds: 20,
} as const;
