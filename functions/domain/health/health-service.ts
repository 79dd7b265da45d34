import { randomUUID } from 'node:crypto';
import { DASHBOARD_FAILING_LISTED } from '../../../shared/constants';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { MESSAGES } from '../../../shared/messages';
import { REPORT_TEST_MESSAGES } from '../../../shared/report-messages';
import type {
  ConnectionTestReply,
  FailingWorkflow,
  HealthDashboard,
  HealthSettings,
  HealthSettingsReply,
  HealthState,
  WorkflowHealthDetail,
  WorkflowHealthList,
} from '../../../shared/schemas/health';
import type { Workflow } from '../../../shared/schemas/workflow';
import { ConflictError } from '../core/errors';
import type { Logger } from '../core/ports';
import { type AuditTrail, auditTarget } from '../directory/audit';
import { ownerEmailOf, visibleWorkflow, visibleWorkflows } from '../directory/members';
import type { Lawyers, WorkflowRecord, Workflows } from '../directory/ports';
import type { WorkflowService } from '../directory/workflows';
import type { SessionContext } from '../identity/sessions';
import { awaitReport, type ReportOutcomes, TEST_REPORT_WAIT_MS } from '../scheduling/completion-reports';
import type { Executions } from '../scheduling/ports';
import { callWorkflowWebhook, type WebhookCallSettings } from '../scheduling/webhook-call';
import {
  deliveryHoursOf,
  hourBefore,
  pauseThresholdOf,
  toWorkflowHealth,
  windowOf,
} from './automation-health';
import type { HealthReads, HealthWrites } from './ports';

export interface HealthServiceDependencies extends WebhookCallSettings {
  readonly health: HealthReads;
  /** /admin/settings saves the settings. */
  readonly healthWrites: Pick<HealthWrites, 'saveSettings'>;
  readonly workflows: Pick<Workflows, 'getById' | 'getMany' | 'listByOwner'>;
  readonly lawyers: Pick<Lawyers, 'findByLicenseHash' | 'findByEmail'>;
  readonly executions: Pick<Executions, 'record'>;
  /** The completion reports, which 'Tester la connexion' waits a few seconds for. */
  readonly reports: ReportOutcomes;
  /** Turns scheduling back on ('Reprendre') through the workflows' own switch. */
  readonly scheduling: Pick<WorkflowService, 'switchScheduling'>;
  readonly audit: Pick<AuditTrail, 'joinedWrite'>;
  readonly logger: Logger;
  /** The admin's alert address set at deployment, shown beside the one of /admin/settings. */
  readonly deploymentAlertEmail: string | null;
}

/** Failing first: paused, then failing, then degraded; the longest streak first within each. */
const STATE_ORDER: Record<HealthState, number> = { paused: 0, failing: 1, degraded: 2, healthy: 3 };

/**
 * Automation health as the API shows it. An admin sees every automation's; a lawyer or
 * notary his own only, decided by `members.ts` from his licence re-read for the request (another's
 * workflow answers 404, as a missing one).
 */
export class HealthService {
  private readonly health: HealthReads;
  private readonly workflows: HealthServiceDependencies['workflows'];
  private readonly lawyers: HealthServiceDependencies['lawyers'];

  constructor(private readonly deps: HealthServiceDependencies) {
    this.health = deps.health;
    this.workflows = deps.workflows;
    this.lawyers = deps.lawyers;
  }

  /**
   * The health of the workflows whose cards are shown: one BatchGetItem of the workflows (whose
   * switches the state depends on, and whose owner a member must be) and one of their summaries.
   * An id of a deleted workflow, or of someone else's, is left out as if it did not exist.
   */
  async lookUp(session: SessionContext, ids: readonly string[]): Promise<WorkflowHealthList> {
    const visible = await visibleWorkflows(this.workflows, this.lawyers, session, ids);
    const summaries = await this.health.summaries(visible.map((workflow) => workflow.id));
    return {
      workflows: visible.map((workflow) =>
        toWorkflowHealth(summaries.get(workflow.id) ?? emptySummary(workflow.id), workflow),
      ),
    };
  }

  /** One workflow's health with its windows: one GetItem and one Query of its week of hours. */
  async detail(session: SessionContext, workflowId: string): Promise<WorkflowHealthDetail> {
    const workflow = await this.visible(session, workflowId);
    const now = this.deps.clock.now();
    const [summary, hours] = await Promise.all([
      this.health.summary(workflow.id),
      this.health.workflowHours(workflow.id, hourBefore(now, 7 * 24 - 1)),
    ]);
    return {
      ...toWorkflowHealth(summary, workflow),
      last24Hours: windowOf(hours, hourBefore(now, 23)),
      last7Days: windowOf(hours, hourBefore(now, 7 * 24 - 1)),
    };
  }

  /**
   * The last 24 hours of deliveries and the automations in failure: everyone's for an admin (the
   * failing set, one Query), a member's own (his hours, and his workflows' summaries).
   */
  async dashboard(session: SessionContext): Promise<HealthDashboard> {
    const now = this.deps.clock.now();
    const since = hourBefore(now, 23);
    if (session.role === 'admin') {
      const [hours, { longest, total }] = await Promise.all([
        this.health.allDeliveryHours(since),
        this.health.longestStreaks(),
      ]);
      // In an outage the set holds every automation of the platform: only the longest streaks are
      // read and listed (their workflows in a few BatchGetItems, not a GetItem each).
      const failing = await this.failingOf(
        await this.workflows.getMany(longest.map((item) => item.workflowId)),
      );
      return {
        hours: deliveryHoursOf(hours, now),
        failing,
        // Cut: the set's size. Whole: those listed, which leaves out a workflow deleted meanwhile.
        failingTotal: longest.length < total ? total : failing.length,
      };
    }
    const owner = await ownerEmailOf(this.lawyers, session);
    if (owner === null) return { hours: deliveryHoursOf([], now), failing: [], failingTotal: 0 };
    const [hours, own] = await Promise.all([
      this.health.ownerHours(owner, since),
      this.workflows.listByOwner(owner),
    ]);
    const failing = await this.failingOf(own);
    return {
      hours: deliveryHoursOf(hours, now),
      failing: failing.slice(0, DASHBOARD_FAILING_LISTED),
      failingTotal: failing.length,
    };
  }

  /**
   * 'Reprendre': scheduling back on through the scheduling service's switch, and the pause record
   * cleared; the failure streak stays until a success ends it. Only a paused workflow resumes.
   */
  async resume(session: SessionContext, workflowId: string): Promise<Workflow> {
    const workflow = await this.visible(session, workflowId);
    const summary = await this.health.summary(workflow.id);
    if (toWorkflowHealth(summary, workflow).state !== 'paused')
      throw new ConflictError(HEALTH_MESSAGES.notPaused);
    // The pause record goes with the switch, and an admin's 'Reprendre' is on the trail with it.
    const resumed = await this.deps.scheduling.switchScheduling(workflow.id, true, (next) => [
      { pauseEnded: workflow.id },
      ...(session.role === 'admin'
        ? [this.deps.audit.joinedWrite(session, 'workflow.resume', auditTarget.workflow(next))]
        : []),
    ]);
    if (!resumed) throw new ConflictError(MESSAGES.workflow.changed);
    this.deps.logger.info('Planification reprise', { workflowId: workflow.id, role: session.role });
    return resumed;
  }

  async settings(): Promise<HealthSettingsReply> {
    const stored = await this.health.settings();
    return {
      pauseAfterFailures: pauseThresholdOf(stored.pauseAfterFailures),
      alertEmail: stored.alertEmail,
      dailyDigest: stored.dailyDigest,
      deploymentAlertEmail: this.deps.deploymentAlertEmail,
    };
  }

  /** Saves the settings of /admin/settings, audited. */
  async saveSettings(session: SessionContext, settings: HealthSettings): Promise<HealthSettingsReply> {
    const { auditEntry } = this.deps.audit.joinedWrite(
      session,
      'health.settings.update',
      auditTarget.healthSettings(settings),
    );
    await this.deps.healthWrites.saveSettings(settings, this.deps.clock.now().toISOString(), auditEntry);
    return { ...settings, deploymentAlertEmail: this.deps.deploymentAlertEmail };
  }

  /**
   * 'Tester la connexion': one signed call of the workflow's webhook through the same guarded
   * delivery, its body marked as a test; recorded in the history as a test, never in the health.
   */
  async testConnection(session: SessionContext, workflowId: string): Promise<ConnectionTestReply> {
    const workflow = await this.visible(session, workflowId);
    const runId = `${workflow.id}:test:${randomUUID()}`;
    const { startedAt, outcome } = await callWorkflowWebhook(
      workflow,
      { trigger: 'test', dueAt: null, messageId: runId, test: true },
      this.deps,
    );
    const message = outcome.ok
      ? `${HEALTH_MESSAGES.testSucceeded(outcome.httpStatus)}. ${await this.reportCheck(workflow.id, runId)}`
      : outcome.httpStatus === 404
        ? `${outcome.message}. ${HEALTH_MESSAGES.inactiveHint}`
        : outcome.message;
    await this.deps.executions.record({
      workflowId: workflow.id,
      dispatchId: null,
      runId,
      trigger: 'test',
      startedAt,
      durationMs: Math.round(outcome.durationMs),
      httpStatus: outcome.httpStatus,
      outcome: outcome.ok ? 'success' : 'failed',
      message: HEALTH_MESSAGES.testRecorded(message),
      attempt: 1,
    });
    this.deps.logger.info('Test de connexion', {
      workflowId: workflow.id,
      role: session.role,
      httpStatus: outcome.httpStatus,
      ok: outcome.ok,
      failure: outcome.failure,
    });
    return { success: outcome.ok, status: outcome.httpStatus, message };
  }

  /**
   * The same check as a run's, in the product's words: whether the workflow posted the test's
   * completion report within a few seconds of answering (docs/n8n-completion-report.md).
   */
  private async reportCheck(workflowId: string, runId: string): Promise<string> {
    const report = await awaitReport(this.deps.reports, this.deps.clock, {
      workflowId,
      runId,
    });
    if (!report) return REPORT_TEST_MESSAGES.notReported(TEST_REPORT_WAIT_MS / 1000);
    return report.status === 'success'
      ? REPORT_TEST_MESSAGES.reported
      : REPORT_TEST_MESSAGES.reportedFailure(report.error ?? report.summary);
  }

  /** The workflows of a list that are not healthy, failing first. */
  private async failingOf(workflows: readonly WorkflowRecord[]): Promise<FailingWorkflow[]> {
    const summaries = await this.health.summaries(workflows.map((workflow) => workflow.id));
    return workflows
      .map((workflow) => ({
        workflow,
        health: toWorkflowHealth(summaries.get(workflow.id) ?? emptySummary(workflow.id), workflow),
      }))
      .filter(({ health }) => health.state !== 'healthy')
      .sort(
        (left, right) =>
          STATE_ORDER[left.health.state] - STATE_ORDER[right.health.state] ||
          right.health.consecutiveFailures - left.health.consecutiveFailures,
      )
      .map(({ workflow, health }) => ({
        workflowId: workflow.id,
        workflowName: workflow.name,
        state: health.state,
        consecutiveFailures: health.consecutiveFailures,
        lastFailureAt: health.lastFailureAt,
        lastFailureMessage: health.lastFailureMessage,
      }));
  }

  private visible(session: SessionContext, workflowId: string): Promise<WorkflowRecord> {
    return visibleWorkflow(this.workflows, this.lawyers, session, workflowId);
  }
}

const emptySummary = (workflowId: string) => ({
  workflowId,
  lastSuccessAt: null,
  lastSuccessRetried: false,
  lastFailureAt: null,
  lastFailureMessage: null,
  lastFailureStatus: null,
  consecutiveFailures: 0,
  pausedAt: null,
  pauseReason: null,
});
