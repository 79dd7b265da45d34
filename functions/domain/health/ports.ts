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

/**
 * Summaries, hour counters (per workflow, for everyone, per lawyer), the failing set, the settings,
 * and the claims that send an alert or a digest once. Counters add atomically.
 */
export interface HealthRecords {
  /** A success: the streak ends (its length returned), the pause clears when `clearPause`. */
  recordSuccess(
    workflowId: string,
    at: string,
    retried: boolean,
    clearPause: boolean,
  ): Promise<{ readonly endedStreak: number }>;
  /** A failure: the streak grows; the summary as it now is. */
  recordFailure(
    workflowId: string,
    failure: { readonly at: string; readonly message: string; readonly httpStatus: number | null },
  ): Promise<HealthSummaryRecord>;
  recordPause(workflowId: string, at: string, reason: string): Promise<void>;
  clearPause(workflowId: string): Promise<void>;
  summary(workflowId: string): Promise<HealthSummaryRecord>;
  summaries(workflowIds: readonly string[]): Promise<Map<string, HealthSummaryRecord>>;
  addToWorkflowHour(workflowId: string, hour: string, increments: HourIncrements, at: Date): Promise<void>;
  /** Adds to everyone's counters of an hour (the admin's dashboard). */
  addToEveryonesHour(workflowId: string, hour: string, increments: HourIncrements, at: Date): Promise<void>;
  /** Adds to the counters of an hour of one lawyer's calls, by his e-mail. */
  addToOwnerHour(ownerEmail: string, hour: string, increments: HourIncrements, at: Date): Promise<void>;
  /** A workflow's hour counters from `fromHour` on, oldest first. */
  workflowHours(workflowId: string, fromHour: string): Promise<HourCounters[]>;
  /** A lawyer's hour counters from `fromHour` on, oldest first. */
  ownerHours(ownerEmail: string, fromHour: string): Promise<HourCounters[]>;
  /** Everyone's hour counters from `fromHour` on; an hour may come several times, to be summed. */
  allDeliveryHours(fromHour: string): Promise<HourCounters[]>;
  markFailing(record: FailingRecord): Promise<void>;
  clearFailing(workflowId: string): Promise<void>;
  longestStreaks(): Promise<LongestStreaks>;
  settings(): Promise<HealthSettingsRecord>;
  saveSettings(settings: HealthSettingsRecord, at: string): Promise<void>;
  /** Claims the one alert of `day` about a workflow: false when it was already sent that day. */
  claimAlert(workflowId: string, day: string, at: Date): Promise<boolean>;
  /** Claims the digest of `day`: false when it was already sent. */
  claimDigest(day: string, at: Date): Promise<boolean>;
}
