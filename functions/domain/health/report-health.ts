import type { WorkflowRecord } from '../directory/ports';
import type { ReceivedReport, ReportCounting, ReportingHabit } from '../scheduling/ports';
import {
  type AutomationHealthDependencies,
  bucketOf,
  failureFollowUp,
  healthHourOf,
  histogram,
  hourBefore,
  p95Of,
  sum,
} from './automation-health';
import type { FailureStreaks, HealthReads, HourCounters, HourIncrements } from './ports';

/**
 * Upper bounds (ms) of the report-delay buckets (a call's start to its completion report), up to
 * the 24 hours a report link lives.
 */
export const REPORT_DELAY_BOUNDS_MS = [
  5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
  43_200_000, 86_400_000,
] as const;

const reportDelayAttribute = (index: number) => `reportDelay${index}`;

/**
 * What a report adds to its run's hour: one report and its delay's bucket (how often and how late
 * the workflow reports: the history's 'Sans compte rendu'), and a processing failure.
 */
export function reportHourIncrements(report: ReceivedReport): HourIncrements {
  const delayMs = Math.max(0, Date.parse(report.reportedAt) - Date.parse(report.runStartedAt));
  return {
    reported: 1,
    [reportDelayAttribute(bucketOf(delayMs, REPORT_DELAY_BOUNDS_MS))]: 1,
    ...(report.failed ? { reportedFailed: 1 } : {}),
  };
}

/** How a workflow reports, from its hours. */
export function reportingHabitOf(hours: readonly HourCounters[]): ReportingHabit {
  const total = sum(hours);
  return {
    delivered: total.succeeded ?? 0,
    reported: total.reported ?? 0,
    p95DelayMs: p95Of(histogram(total, REPORT_DELAY_BOUNDS_MS, reportDelayAttribute), REPORT_DELAY_BOUNDS_MS),
  };
}

/** What the reports' health needs: the health's writes as the calls' ends make them, and its hours. */
export interface ReportHealthDependencies extends AutomationHealthDependencies {
  readonly hours: Pick<HealthReads, 'workflowHours'>;
  readonly streaks: FailureStreaks;
}

/**
 * What a completion report does to its workflow's health. Apart from `AutomationHealth` so that
 * the functions that only call workflows do not carry it.
 */
export class ReportHealth implements ReportCounting {
  constructor(private readonly deps: ReportHealthDependencies) {}

  /** How a workflow reported over the `windowHours` hours up to `now`'s (the history's 'Sans compte rendu'). */
  async reportingHabit(workflowId: string, now: Date, windowHours: number): Promise<ReportingHabit> {
    return reportingHabitOf(
      await this.deps.hours.workflowHours(workflowId, hourBefore(now, windowHours - 1)),
    );
  }

  /**
   * A run's completion report (the call was delivered already), written as a call's end is: its
   * counts in its run's hour and, for a reported failure, one more in the streak, with everyone's
   * and the lawyer's counts. A reported failure is a failure like a delivery's, on the card, in the
   * failing set, and for the automatic pause and its alerts. Its streak is the larger of the card's
   * (failures since the last delivered run) and the workflow's reported failures in a row, so that
   * a workflow whose n8n answers every call and fails every time behind it is paused like one that
   * does not answer. A test's report is never counted.
   */
  async reportReceived(workflow: WorkflowRecord, report: ReceivedReport): Promise<void> {
    if (report.trigger === 'test') return;
    const { health } = this.deps;
    const hour = healthHourOf(new Date(report.runStartedAt));
    const processing = { hour, increments: { reportedFailed: 1 } };
    const [ended] = await Promise.all([
      health.recordRunEnd({
        workflowId: workflow.id,
        startedAt: report.runStartedAt,
        setsLastRun: false,
        streak: report.failed ? 'failure' : null,
        retried: false,
        count: { hour, increments: reportHourIncrements(report) },
      }),
      ...(report.failed
        ? [
            health.addToEveryonesHour(workflow.id, processing),
            health.addToOwnerHour(workflow.lawyerEmail, processing),
          ]
        : []),
    ]);
    if (!report.failed || !ended.exists) return;
    const failures = Math.max(ended.streakAfter, report.processingStreak);
    if (failures > ended.streakAfter) await this.deps.streaks.raiseFailures(workflow.id, failures);
    await failureFollowUp(this.deps, workflow, {
      trigger: report.trigger,
      at: report.reportedAt,
      message: report.message,
      httpStatus: null,
      failures,
    });
  }
}
