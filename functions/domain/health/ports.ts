import type { AuditRecord } from '../directory/ports';

/* Automation health as the health services store it (`data/health`), kept as runs end. */

/** A workflow's health as stored: what the runs left, before the state is worked out. */
export interface HealthSummaryRecord {
  readonly workflowId: string;
  readonly lastSuccessAt: string | null;
  /** The last success needed retries. */
  readonly lastSuccessRetried: boolean;
  readonly lastFailureAt: string | null;
  readonly lastFailureMessage: string | null;
  readonly lastFailureStatus: number | null;
  readonly consecutiveFailures: number;
  readonly pausedAt: string | null;
  readonly pauseReason: string | null;
}

/** Counter increments of one hour: attribute name → amount (outcomes and histogram buckets). */
export type HourIncrements = Readonly<Record<string, number>>;

/** The counters of one hour (`yyyy-mm-ddThh`, UTC), as read back. */
export interface HourCounters {
  readonly hour: string;
  readonly counts: Readonly<Record<string, number>>;
}

/** An item of the failing set: an automation whose last run failed. */
export interface FailingRecord {
  readonly workflowId: string;
  readonly workflowName: string;
  readonly consecutiveFailures: number;
  readonly lastFailureAt: string | null;
  readonly lastFailureMessage: string | null;
}

/** What a dashboard or the daily digest lists of the failing set. */
export interface LongestStreaks {
  /** The longest failure streaks, at most `DASHBOARD_FAILING_LISTED`, longest first. */
  readonly longest: readonly FailingRecord[];
  /** How many automations the set holds. */
  readonly total: number;
}

/** The stored health settings; null fields take their defaults. */
export interface HealthSettingsRecord {
  readonly pauseAfterFailures: number | null;
  readonly alertEmail: string | null;
  readonly dailyDigest: boolean;
}

/** Counts of one hour to add: the hour (`yyyy-mm-ddThh`, UTC) and its increments. */
export interface HourCount {
  readonly hour: string;
  readonly increments: HourIncrements;
}

/**
 * One call's end as it is kept on its workflow (its schedule item: the state the list and the
 * scheduler read beside it), in one write: the last run, what the end does to the failure streak,
 * and the call's counts in its hour.
 */
export interface RunEnd {
  readonly workflowId: string;
  readonly startedAt: string;
  /** The call is the workflow's last run (every call but a cancelled run and a connection test). */
  readonly setsLastRun: boolean;
  /** A run's end: a success ends the streak, a failure adds one; null for a retried attempt. */
  readonly streak: 'success' | 'failure' | null;
  /** A success that needed retries. */
  readonly retried: boolean;
  /** The counts of the workflow's hour; null when the call does not count (a cancelled run). */
  readonly count: HourCount | null;
}

export interface RunEndResult {
  /** False when the workflow no longer exists (deleted during the call): nothing was written. */
  readonly exists: boolean;
  /** The failure streak before this end, and after it. */
  readonly streakBefore: number;
  readonly streakAfter: number;
}

/** The health as runs end: each workflow's run state, failures, the failing set, the counters. */
export interface HealthWrites {
  recordRunEnd(end: RunEnd): Promise<RunEndResult>;
  /** The details of a failure (its time, message and status), beside the streak. */
  recordFailure(
    workflowId: string,
    failure: { readonly at: string; readonly message: string; readonly httpStatus: number | null },
  ): Promise<void>;
  /** A streak ended while scheduled: the pause record (and the paused list's entry) goes. */
  clearPause(workflowId: string): Promise<void>;
  markFailing(record: FailingRecord): Promise<void>;
  clearFailing(workflowId: string): Promise<void>;
  /**
   * Adds to everyone's counters of an hour (the admin's dashboard), in the shard `spread` falls in:
   * a batch adds its calls at once.
   */
  addToEveryonesHour(spread: string, count: HourCount): Promise<void>;
  /** Adds to one lawyer's counters of an hour (kept on his firm's call slots), by his e-mail. */
  addToOwnerHour(ownerEmail: string, count: HourCount): Promise<void>;
  /** Saves the settings with their audit entry (an admin's save), in one transaction. */
  saveSettings(settings: HealthSettingsRecord, at: string, audit?: AuditRecord): Promise<void>;
  /** Claims the one alert of `day` about a workflow: false when it was already sent that day. */
  claimAlert(workflowId: string, day: string, at: Date): Promise<boolean>;
  /** Claims the digest of `day`: false when it was already sent. */
  claimDigest(day: string, at: Date): Promise<boolean>;
}

/** The failure streak as a completion report raises it (apart: the calls' ends never do). */
export interface FailureStreaks {
  /**
   * Raises the streak to `failures` when it is lower (a workflow's reported processing failures in
   * a row, which a delivered call in between does not end); false when it was not lower.
   */
  raiseFailures(workflowId: string, failures: number): Promise<boolean>;
}

/** The health as the screens and the digest read it. */
export interface HealthReads {
  summary(workflowId: string): Promise<HealthSummaryRecord>;
  summaries(workflowIds: readonly string[]): Promise<Map<string, HealthSummaryRecord>>;
  /** A workflow's hour counters from `fromHour` on, oldest first. */
  workflowHours(workflowId: string, fromHour: string): Promise<HourCounters[]>;
  /** A lawyer's hour counters from `fromHour` on, oldest first. */
  ownerHours(ownerEmail: string, fromHour: string): Promise<HourCounters[]>;
  /** Everyone's hour counters from `fromHour` on; an hour may come several times, to be summed. */
  allDeliveryHours(fromHour: string): Promise<HourCounters[]>;
  longestStreaks(): Promise<LongestStreaks>;
  settings(): Promise<HealthSettingsRecord>;
}
