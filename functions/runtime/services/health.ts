import { LawyerReader } from '../../data/directory/lawyers';
import { WorkflowRepository } from '../../data/directory/workflows';
import { HealthReadRepository } from '../../data/health/health-reads';
import { HealthSettingsRepository } from '../../data/health/health-settings';
import { HealthWriteRepository, raiseFailures } from '../../data/health/health-writes';
import { ownerHourCounters } from '../../data/health/keys';
import { LicenseRepository } from '../../data/identity/licenses';
import { readReportOutcome } from '../../data/scheduling/completion-reports';
import { ExecutionRepository } from '../../data/scheduling/executions';
import { FirmSlotRepository } from '../../data/scheduling/firm-slots';
import type { Table } from '../../data/table/table';
import type { Clock, Logger, MailPorts } from '../../domain/core/ports';
import type { ScheduleStarts } from '../../domain/directory/ports';
import { switchScheduling } from '../../domain/directory/workflows';
import {
  AutomationHealth,
  type AutomationHealthDependencies,
  ownerCountOf,
} from '../../domain/health/automation-health';
import { HealthAlerts } from '../../domain/health/health-alerts';
import { HealthService } from '../../domain/health/health-service';
import { ReportHealth } from '../../domain/health/report-health';
import type { AppDependencies } from '../dependencies';
import { auditTrailOf } from './directory';
import { reportLinksOf, webhookDeliveryOf } from './webhooks';

/* The health services of a world, over its table. */

/**
 * A firm's call slots, whose item also holds its lawyer's counters of the hour: a call is added to
 * them by the write that gives its slot back. A connection test counts nowhere.
 */
export const firmSlotsOf = (table: Table) =>
  new FirmSlotRepository(table, (firm, call) =>
    call.trigger === 'test' ? null : { spec: ownerHourCounters(firm), count: ownerCountOf(call) },
  );

type HealthWorld = {
  readonly table: Table;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly mail?: MailPorts;
  readonly adminAlertEmail?: string;
};

/** The health e-mails of a world that declared the mailer. */
export const healthAlertsOf = (deps: HealthWorld & { readonly mail: MailPorts }) =>
  new HealthAlerts({
    health: new HealthReadRepository(deps.table),
    claims: new HealthWriteRepository(deps.table),
    lawyers: new LawyerReader(deps.table),
    licenses: new LicenseRepository(deps.table),
    mail: deps.mail,
    adminAlertEmail: deps.adminAlertEmail ?? null,
    clock: deps.clock,
    logger: deps.logger,
  });

/**
 * The health of a world's runs: its pause goes through the workflows' own scheduling switch, its
 * alerts through the mailer when the function declared one.
 */
export const automationHealthOf = (deps: HealthWorld): AutomationHealth =>
  new AutomationHealth(runHealthDependenciesOf(deps, alertsOf(deps)));

/** The health of manual runs, which never pause: no alerts, nor the code that sends them. */
export const manualRunHealthOf = (deps: HealthWorld): AutomationHealth =>
  new AutomationHealth(runHealthDependenciesOf(deps, undefined));

/**
 * What a completion report does to the health: written as a call's end is, and a reported failure
 * paused and alerted as a failed run is.
 */
export const reportHealthOf = (deps: HealthWorld): ReportHealth =>
  new ReportHealth({
    ...runHealthDependenciesOf(deps, alertsOf(deps)),
    hours: new HealthReadRepository(deps.table),
    streaks: { raiseFailures: (workflowId, failures) => raiseFailures(deps.table, workflowId, failures) },
  });

const alertsOf = (deps: HealthWorld) =>
  deps.mail ? healthAlertsOf({ ...deps, mail: deps.mail }) : undefined;

function runHealthDependenciesOf(
  deps: HealthWorld,
  alerts: HealthAlerts | undefined,
): AutomationHealthDependencies {
  const workflows = new WorkflowRepository(deps.table);
  return {
    health: new HealthWriteRepository(deps.table),
    settings: new HealthSettingsRepository(deps.table),
    clock: deps.clock,
    logger: deps.logger,
    switchScheduling: async (workflowId, enabled, alsoWrite) =>
      (await switchScheduling({ workflows, clock: deps.clock }, workflowId, enabled, alsoWrite)) !== null,
    ...(alerts ? { alerts } : {}),
  };
}

export const healthServiceOf = (
  deps: Pick<
    AppDependencies,
    | 'table'
    | 'clock'
    | 'logger'
    | 'webhookSigningSecret'
    | 'allowPrivateWebhooks'
    | 'publicApiUrl'
    | 'adminAlertEmail'
  >,
  /** 'Reprendre' schedules the workflow again: its first runs leave at once. */
  scheduleStarts?: ScheduleStarts,
) =>
  new HealthService({
    health: new HealthReadRepository(deps.table),
    healthWrites: new HealthSettingsRepository(deps.table),
    workflows: new WorkflowRepository(deps.table),
    lawyers: new LawyerReader(deps.table),
    executions: new ExecutionRepository(deps.table),
    scheduling: {
      switchScheduling: (id, enabled, alsoWrite) =>
        switchScheduling(
          { workflows: new WorkflowRepository(deps.table), clock: deps.clock, scheduleStarts },
          id,
          enabled,
          alsoWrite,
        ),
    },
    audit: auditTrailOf(deps),
    clock: deps.clock,
    webhooks: webhookDeliveryOf(deps),
    reportLinks: reportLinksOf(deps),
    reports: { reportOf: (workflowId, runId) => readReportOutcome(deps.table, workflowId, runId) },
    logger: deps.logger,
    deploymentAlertEmail: deps.adminAlertEmail ?? null,
  });
