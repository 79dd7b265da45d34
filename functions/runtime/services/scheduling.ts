import { LawyerRepository } from '../../data/directory/lawyers';
import { WorkflowRepository } from '../../data/directory/workflows';
import { LicenseRepository } from '../../data/identity/licenses';
import { CompletionReportRepository } from '../../data/scheduling/completion-reports';
import { DispatchStateRepository } from '../../data/scheduling/dispatch-state';
import { ExecutionRepository } from '../../data/scheduling/executions';
import { recordedRunOf } from '../../data/scheduling/replays';
import { SchedulerRunRepository } from '../../data/scheduling/scheduler-runs';
import { WorkflowRunRepository } from '../../data/scheduling/workflow-runs';
import type { Table } from '../../data/table/table';
import type { Metrics } from '../../domain/core/metrics';
import type { Clock, Logger } from '../../domain/core/ports';
import type { ScheduleStarts } from '../../domain/directory/ports';
import { CompletionReports } from '../../domain/scheduling/completion-reports';
import { DeadLetterService } from '../../domain/scheduling/dead-letters';
import { ExecutionHistory } from '../../domain/scheduling/execution-history';
import { ManualRunService } from '../../domain/scheduling/manual-run';
import type { DispatchQueue, SchedulerRuns } from '../../domain/scheduling/ports';
import { RunDispatch } from '../../domain/scheduling/run-dispatch';
import { type RunSchedulerDependencies, runScheduler } from '../../domain/scheduling/run-scheduler';
import { SchedulerService } from '../../domain/scheduling/scheduler';
import { WorkerService } from '../../domain/scheduling/worker';
import type { AppDependencies } from '../dependencies';
import { automationHealthOf, firmSlotsOf, manualRunHealthOf, reportHealthOf } from './health';
import { reportLinksOf, webhookDeliveryOf } from './webhooks';

/* The scheduling services of a world, over its table and its scheduling ports. */

/** The last result of each kind of scheduler run. */
export const schedulerRunsOf = (table: Table): SchedulerRuns => new SchedulerRunRepository(table);

export const schedulerServiceOf = (deps: {
  readonly table: Table;
  readonly queue: DispatchQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: Metrics;
}) =>
  new SchedulerService({
    runs: new WorkflowRunRepository(deps.table),
    lastResults: new SchedulerRunRepository(deps.table),
    queue: deps.queue,
    clock: deps.clock,
    logger: deps.logger,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });

/** The sends of due runs and their claims, without the rest of the scheduler. */
export const runDispatchOf = (deps: {
  readonly table: Table;
  readonly queue: DispatchQueue;
  readonly clock: Clock;
  readonly logger: Logger;
}) => new RunDispatch({ ...deps, runs: new WorkflowRunRepository(deps.table) });

/** Sends the first runs of a workflow a write just scheduled (`RunDispatch.startSchedule`). */
export const scheduleStartsOf =
  (deps: Pick<AppDependencies, 'table' | 'webhookQueue' | 'clock' | 'logger'>): ScheduleStarts =>
  (workflowId) =>
    runDispatchOf({ ...deps, queue: deps.webhookQueue }).startSchedule(workflowId);

/** An admin's run, fanned out over the world's claimers (`runScheduler`). */
export const adminSchedulerRun = (
  deps: Pick<AppDependencies, 'table' | 'dueClaimers' | 'clock' | 'logger' | 'metrics'>,
  trigger: 'manual' | 'manual_force',
  options?: { readonly stopWaiting?: Promise<unknown> },
) => {
  const run: RunSchedulerDependencies = {
    lastResults: new SchedulerRunRepository(deps.table),
    dueClaimers: deps.dueClaimers,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  };
  return runScheduler(run, trigger, options);
};

type CallingWorld = Pick<
  AppDependencies,
  'table' | 'clock' | 'logger' | 'webhookSigningSecret' | 'allowPrivateWebhooks' | 'publicApiUrl'
> &
  Partial<Pick<AppDependencies, 'mail'>>;

export const workerServiceOf = (deps: CallingWorld & Pick<AppDependencies, 'webhookQueue' | 'metrics'>) =>
  new WorkerService({
    dispatches: new DispatchStateRepository(deps.table),
    executions: new ExecutionRepository(deps.table),
    slots: firmSlotsOf(deps.table),
    lastResults: new SchedulerRunRepository(deps.table),
    health: automationHealthOf(deps),
    queue: deps.webhookQueue,
    clock: deps.clock,
    webhooks: webhookDeliveryOf(deps),
    reportLinks: reportLinksOf(deps),
    logger: deps.logger,
    metrics: deps.metrics,
  });

export const manualRunServiceOf = (deps: CallingWorld) =>
  new ManualRunService({
    workflows: new WorkflowRepository(deps.table),
    lawyers: new LawyerRepository(deps.table),
    runs: new WorkflowRunRepository(deps.table),
    executions: new ExecutionRepository(deps.table),
    health: manualRunHealthOf(deps),
    recordedRun: (workflowId, startedAt, executionId) =>
      recordedRunOf(deps.table, workflowId, startedAt, executionId),
    ownerLicenseActive: ownerLicenseActiveOf(deps.table),
    clock: deps.clock,
    webhooks: webhookDeliveryOf(deps),
    reportLinks: reportLinksOf(deps),
    logger: deps.logger,
  });

/** 'Relancer les exécutions en échec': what can be sent is sent back, the rest counted by reason. */
export const deadLettersOf = (deps: Pick<AppDependencies, 'table' | 'clock' | 'logger' | 'webhookQueue'>) => {
  const workflows = new WorkflowRepository(deps.table);
  return new DeadLetterService({
    queue: deps.webhookQueue,
    executions: new ExecutionRepository(deps.table),
    workflowOf: (workflowId) => workflows.getById(workflowId),
    ownerLicenseActive: ownerLicenseActiveOf(deps.table),
    clock: deps.clock,
    logger: deps.logger,
  });
};

/** Whether an automation's owner may still be called on a person's decision: false only for a licence known and inactive. */
const ownerLicenseActiveOf = (table: Table) => {
  const lawyers = new LawyerRepository(table);
  const licenses = new LicenseRepository(table);
  return async (lawyerEmail: string) => {
    const keyHash = (await lawyers.findByEmail(lawyerEmail))?.licenseKeyHash;
    if (!keyHash) return true;
    return (await licenses.getByHash(keyHash))?.isActive ?? true;
  };
};

export const executionHistoryOf = (table: Table) =>
  new ExecutionHistory({
    workflows: new WorkflowRepository(table),
    lawyers: new LawyerRepository(table),
    executions: new ExecutionRepository(table),
  });

/** The completion reports of a world: posted by the workflows, shown in the history, counted in the health. */
export const completionReportsOf = (
  deps: Pick<AppDependencies, 'table' | 'clock' | 'logger' | 'metrics' | 'webhookSigningSecret' | 'mail'>,
) =>
  new CompletionReports({
    reports: new CompletionReportRepository(deps.table),
    workflows: new WorkflowRepository(deps.table),
    health: reportHealthOf(deps),
    webhookSigningSecret: deps.webhookSigningSecret,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
