/**
 * The product's business and failure metrics. The code records them through the `Metrics` port
 * (CloudWatch embedded metric format in Lambda, memory in tests); the CDK stack
 * (`lib/constructs/monitoring.ts`) alarms and draws its dashboard on the same names, so a renamed
 * metric cannot leave an alarm watching nothing.
 */
export const METRIC = {
  /** A scheduler tick ran to its end (the heartbeat: its absence for 5 minutes is an alarm). */
  tickCompleted: 'TickCompleted',
  /** Due slots found, claimed and handed to the queue by one tick. */
  dueFound: 'DueFound',
  dueClaimed: 'DueClaimed',
  dueEnqueued: 'DueEnqueued',
  /** Due-index shards of an admin's run whose claimer failed twice: their runs were not looked at. */
  shardsNotRun: 'SchedulerShardsNotRun',
  /** Webhook calls: succeeded, failed for good, given back to retry, sent to the dead-letter queue. */
  deliverySucceeded: 'DeliverySucceeded',
  deliveryFailed: 'DeliveryFailed',
  deliveryRetried: 'DeliveryRetried',
  deliveryDeadLettered: 'DeliveryDeadLettered',
  /** Milliseconds from a run's due time to the start of its call. */
  dispatchLag: 'DispatchLag',
  /** Sign-in: wrong keys, and attempts refused by the per-address throttle. */
  signInFailed: 'SignInFailed',
  signInThrottled: 'SignInThrottled',
  /** Stripe webhooks: events applied, deliveries refused (bad or missing signature). */
  stripeEventApplied: 'StripeEventApplied',
  stripeWebhookRejected: 'StripeWebhookRejected',
  /** E-mails handed to SES, and refused by it (throttled, rejected, not allowed). */
  emailSent: 'EmailSent',
  emailFailed: 'EmailFailed',
  /** SES reported a bounce or a complaint of one of our e-mails (`undelivered-mail`). */
  emailBounced: 'EmailBounced',
  emailComplained: 'EmailComplained',
  /** A secret the function needs could not be read or holds no usable value. */
  secretUnavailable: 'SecretUnavailable',
  /** An API call answered 5xx from an error the handler caught: no Lambda error counts it. */
  handledServerError: 'HandledServerError',
  /** A request answered 503: the table unreachable, throttled or timing out after the retries. */
  storeUnavailable: 'StoreUnavailable',
} as const;

/**
 * The completion reports' and the data exports' metrics: apart from `METRIC` so that only their
 * functions' bundles carry them.
 */
export const REPORT_METRIC = {
  /** Completion reports accepted, by what they say, and refused (unknown, late, twice, malformed). */
  reportedSuccess: 'ReportedSuccess',
  reportedFailure: 'ReportedFailure',
  reportRefused: 'ReportRefused',
  /** A firm's data export written, or failed (the firm is told to try again). */
  exportBuilt: 'DataExportBuilt',
  exportFailed: 'DataExportFailed',
} as const;

export type MetricName =
  | (typeof METRIC)[keyof typeof METRIC]
  | (typeof REPORT_METRIC)[keyof typeof REPORT_METRIC];

/** The `service` dimension every metric carries (Powertools' default dimension). */
export const METRICS_SERVICE = 'assistant-juridique';

/**
 * Where metrics go. `count` adds to a counter, `duration` records milliseconds; the AWS side
 * flushes them at the end of each invocation. Never a customer value as a dimension.
 */
export interface Metrics {
  count(name: MetricName, value?: number): void;
  duration(name: MetricName, milliseconds: number): void;
}

/** Metrics nobody reads (a construct used outside any runtime). */
export const noMetrics: Metrics = { count: () => {}, duration: () => {} };

/**
 * Metrics kept in memory, open to reading: the local runtime and the tests record through it, so a
 * test can check that a failure ended in its metric.
 */
export class RecordedMetrics implements Metrics {
  readonly counts = new Map<MetricName, number>();
  readonly durations = new Map<MetricName, number[]>();

  count(name: MetricName, value = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + value);
  }

  duration(name: MetricName, milliseconds: number): void {
    this.durations.set(name, [...(this.durations.get(name) ?? []), milliseconds]);
  }

  /** The total counted under a name (0 when never counted). */
  countOf(name: MetricName): number {
    return this.counts.get(name) ?? 0;
  }
}
