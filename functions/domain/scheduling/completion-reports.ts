import { REPORT_MESSAGES } from '../../../shared/report-messages';
import type {
  CompletionReportReply,
  CompletionReportRequest,
  RunReport,
} from '../../../shared/schemas/completion-report';
import type { Execution, ExecutionTrigger } from '../../../shared/schemas/scheduler';
import { ConflictError, GoneError, InvalidInputError, NotFoundError } from '../core/errors';
import { type Metrics, noMetrics, REPORT_METRIC } from '../core/metrics';
import type { Clock, Logger } from '../core/ports';
import type { WorkflowRecord } from '../directory/ports';
import type { ReportCounting, ReportingHabit } from './ports';
import { type ReportedRun, verifyReportToken } from './report-links';

/** A completion report as kept: the run it is about and what the workflow said. */
export interface StoredReport {
  readonly workflowId: string;
  readonly runId: string;
  readonly trigger: ExecutionTrigger;
  /** When the call that carried the report link started. */
  readonly runStartedAt: string;
  readonly status: 'success' | 'failure';
  readonly summary: string;
  readonly items: number | null;
  readonly error: string | null;
  readonly reportedAt: string;
}

/** Where reports are kept (`functions/data/scheduling/completion-reports.ts`). */
export interface CompletionReportStore {
  /** Records a run's report unless one is recorded already: false then, and nothing is written. */
  recordOnce(report: StoredReport): Promise<boolean>;
  /** The reports of some runs of a workflow, by run id (a run without one is absent). */
  reportsOf(workflowId: string, runIds: readonly string[]): Promise<Map<string, StoredReport>>;
  /** One run's report, read consistently (the connection test waits for it). */
  reportOf(workflowId: string, runId: string): Promise<StoredReport | null>;
  /** Counts a report in the workflow's reported failures in a row; returns the new count. */
  countProcessingStreak(workflowId: string, failed: boolean): Promise<number>;
}

/** What a run's report said, as 'Tester la connexion' tells it. */
export type ReportOutcome = Pick<StoredReport, 'status' | 'summary' | 'error'>;

/** One run's report read consistently, as much as 'Tester la connexion' tells of it. */
export interface ReportOutcomes {
  reportOf(workflowId: string, runId: string): Promise<ReportOutcome | null>;
}

/** What the reports need of the rest of the product. */
export interface CompletionReportDependencies {
  readonly reports: CompletionReportStore;
  readonly workflows: { getById(workflowId: string): Promise<WorkflowRecord | null> };
  /** The health's side of a report: where it counts, and how often and how late the workflow reports. */
  readonly health: ReportCounting;
  /** The webhook signing secret, from which report links are signed. */
  readonly webhookSigningSecret: () => Promise<string>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: Metrics;
}

/**
 * When a workflow "usually reports", and how long its report may take, from its last 7 days of
 * health hours:
 * - it usually reports when at least `minReports` of its delivered runs reported and they are at
 *   least `minShare` of them (a workflow wired for reports, not one that reported once);
 * - its expected time is twice the 95th percentile of its report delays (the upper bound of that
 *   bucket), never less than `minExpectedMs` (n8n's queue and a slow Google API are normal) nor
 *   more than the 24 hours a link lives.
 * docs/n8n-completion-report.md says the same to the firms.
 */
export const REPORTING_HABIT = {
  windowHours: 7 * 24,
  minReports: 3,
  minShare: 0.5,
  minExpectedMs: 2 * 60_000,
  maxExpectedMs: 24 * 60 * 60_000,
} as const;

/** The report's expected time of a workflow; null when it does not usually report. */
export function expectedReportTimeMs(habit: ReportingHabit): number | null {
  if (habit.reported < REPORTING_HABIT.minReports) return null;
  if (habit.reported < REPORTING_HABIT.minShare * habit.delivered) return null;
  const twice = 2 * (habit.p95DelayMs ?? 0);
  return Math.min(REPORTING_HABIT.maxExpectedMs, Math.max(REPORTING_HABIT.minExpectedMs, twice));
}

/** A stored report as the history shows it. */
export function runReportOf(report: StoredReport): RunReport {
  return report.status === 'success'
    ? { state: 'success', summary: report.summary, items: report.items, reportedAt: report.reportedAt }
    : {
        state: 'failure',
        summary: report.summary,
        items: report.items,
        error: report.error,
        reportedAt: report.reportedAt,
      };
}

/** A call that ends its run's delivery (no retry follows) and so carries its run's report. */
const endsItsRun = (execution: Execution) =>
  execution.outcome !== 'cancelled' && execution.retry === undefined;

/**
 * Completion reports, so that a run is known by what the workflow did and not only by n8n's 2xx:
 * a workflow tells, once, within 24 hours, how its run ended. The link it posts to names the run and is signed (`report-links.ts`), so accepting a report needs
 * no state made at call time: the report is recorded once per run by a conditional write, and
 * what it says goes to the run's history and, for a failure, to the health as a failure.
 */
export class CompletionReports {
  constructor(private readonly deps: CompletionReportDependencies) {}

  /**
   * A report posted to a run's link. Refused, changing nothing: a link the server did not make
   * (404), past its 24 hours (410), naming another run in its body (400), of a deleted workflow
   * (404), or a second report of the run (409). The body was validated by the route's schema.
   */
  async submit(token: string, request: CompletionReportRequest): Promise<CompletionReportReply> {
    const metrics = this.deps.metrics ?? noMetrics;
    const run = verifyReportToken(token, await this.deps.webhookSigningSecret());
    if (!run) {
      metrics.count(REPORT_METRIC.reportRefused);
      throw new NotFoundError(REPORT_MESSAGES.refused.unknownLink);
    }
    const now = this.deps.clock.now();
    try {
      return await this.accept(run, request, now);
    } catch (error) {
      metrics.count(REPORT_METRIC.reportRefused);
      this.deps.logger.info('Compte rendu refusé', {
        workflowId: run.workflowId,
        runId: run.runId,
        reason: error instanceof Error ? error.name : 'inconnu',
      });
      throw error;
    }
  }

  private async accept(
    run: ReportedRun,
    request: CompletionReportRequest,
    now: Date,
  ): Promise<CompletionReportReply> {
    if (now.getTime() > run.expiresAt * 1000) throw new GoneError(REPORT_MESSAGES.refused.expired);
    if (request.runId !== undefined && request.runId !== run.runId)
      throw new InvalidInputError('runId', REPORT_MESSAGES.refused.otherRun);
    const workflow = await this.deps.workflows.getById(run.workflowId);
    if (!workflow) throw new NotFoundError(REPORT_MESSAGES.refused.workflowGone);
    const failed = request.status === 'failure';
    const report: StoredReport = {
      workflowId: run.workflowId,
      runId: run.runId,
      trigger: run.trigger,
      runStartedAt: run.startedAt,
      status: request.status,
      summary: request.summary.trim(),
      items: request.items ?? null,
      error: request.error?.trim() || null,
      reportedAt: now.toISOString(),
    };
    if (!(await this.deps.reports.recordOnce(report)))
      throw new ConflictError(REPORT_MESSAGES.refused.alreadyReported);
    (this.deps.metrics ?? noMetrics).count(
      failed ? REPORT_METRIC.reportedFailure : REPORT_METRIC.reportedSuccess,
    );
    this.deps.logger.info('Compte rendu reçu', {
      workflowId: run.workflowId,
      runId: run.runId,
      status: request.status,
    });
    if (run.trigger !== 'test') await this.countInHealth(workflow, report);
    return { accepted: true, runId: run.runId, message: REPORT_MESSAGES.accepted };
  }

  /** The health's side: never fails the report, which is recorded already (logged instead). */
  private async countInHealth(workflow: WorkflowRecord, report: StoredReport): Promise<void> {
    const failed = report.status === 'failure';
    try {
      const processingStreak = await this.deps.reports.countProcessingStreak(workflow.id, failed);
      await this.deps.health.reportReceived(workflow, {
        trigger: report.trigger,
        runStartedAt: report.runStartedAt,
        reportedAt: report.reportedAt,
        failed,
        message: REPORT_MESSAGES.processingFailure(report.error ?? report.summary),
        processingStreak,
      });
    } catch (error) {
      this.deps.logger.error('Santé de l’automatisation non mise à jour après un compte rendu', {
        workflowId: workflow.id,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    }
  }

  /**
   * A page of a workflow's history with each run's report beside its delivery, or 'Sans compte
   * rendu' when the workflow usually reports and this delivered run is past its expected time. The
   * page's reports (one BatchGetItem) and the workflow's week of hours (one Query) are read at once.
   */
  async withReports(workflowId: string, executions: readonly Execution[]): Promise<Execution[]> {
    const now = this.deps.clock.now();
    const runIds = [...new Set(executions.filter(endsItsRun).flatMap((execution) => execution.runId ?? []))];
    if (runIds.length === 0) return [...executions];
    const [reports, habit] = await Promise.all([
      this.deps.reports.reportsOf(workflowId, runIds),
      this.deps.health.reportingHabit(workflowId, now, REPORTING_HABIT.windowHours),
    ]);
    const expectedMs = expectedReportTimeMs(habit);
    return executions.map((execution) => {
      if (!endsItsRun(execution) || execution.runId === undefined) return execution;
      const report = reports.get(execution.runId);
      if (report) return { ...execution, report: runReportOf(report) };
      if (expectedMs === null || execution.outcome !== 'success' || execution.trigger === 'test')
        return { ...execution, report: null };
      const expectedBy = Date.parse(execution.startedAt) + expectedMs;
      return expectedBy < now.getTime()
        ? { ...execution, report: { state: 'missing', expectedBy: new Date(expectedBy).toISOString() } }
        : { ...execution, report: null };
    });
  }
}

/** How long 'Tester la connexion' waits for the test's report after the call answered. */
export const TEST_REPORT_WAIT_MS = 5_000;

/**
 * 'Tester la connexion': the test call's report, when the workflow posts it within `waitMs`
 * (looked for every half second); null otherwise.
 */
export async function awaitReport(
  reports: ReportOutcomes,
  clock: Clock,
  run: { readonly workflowId: string; readonly runId: string },
  waitMs: number = TEST_REPORT_WAIT_MS,
): Promise<ReportOutcome | null> {
  const step = 500;
  for (let waited = 0; ; waited += step) {
    const report = await reports.reportOf(run.workflowId, run.runId);
    if (report || waited >= waitMs) return report;
    await clock.sleep(step);
  }
}
