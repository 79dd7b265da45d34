import type { Table } from '../data/table/table';
import type { ExportFiles, ExportJobs } from '../domain/billing/data-export';
import type { PortalLinkQueue } from '../domain/billing/portal-link';
import type { Metrics } from '../domain/core/metrics';
import type { Clock, Logger, MailPorts } from '../domain/core/ports';
import type { LawyerSecretStore } from '../domain/directory/ports';
import type { RelyingParty, SecondFactorSettings } from '../domain/second-factor/ports';
import type { AppKeys } from '../security/app-keys';
import type { BillingPorts } from './billing-ports';
import type { SchedulingPorts } from './scheduling-ports';

/** The system's clock, for the worlds that run in real time. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
};

/** The relying party of a site address: its host name and origin. */
export function relyingPartyOf(siteUrl: string): RelyingParty {
  const url = new URL(siteUrl);
  return { id: url.hostname, origin: url.origin };
}

/**
 * Everything a handler needs from the world it runs in. One composition root per environment
 * builds it: `functions/runtime/aws.ts` in Lambda, `lib/local` in the local runtime, the test
 * helpers in tests.
 */
export interface AppDependencies extends SchedulingPorts {
  readonly table: Table;
  /** The server keys, loaded once per process from Secrets Manager (or the local keys file). */
  readonly appKeys: () => Promise<AppKeys>;
  /**
   * The secret CloudFront sends in `x-origin-verify`, loaded once per process; absent where no
   * CloudFront stands in front of the API (the local runtime, tests).
   */
  readonly originSecret?: () => Promise<string>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Business and failure metrics (`functions/domain/core/metrics.ts`): EMF in Lambda, memory elsewhere. */
  readonly metrics: Metrics;
  readonly lawyerSecrets: LawyerSecretStore;
  readonly secondFactor: SecondFactorSettings;
  /**
   * Stripe, e-mail and the site's public address, for the billing calls. Absent only in tests
   * that exercise no billing call; a billing handler without it fails at once.
   */
  readonly billing?: BillingPorts;
  /** E-mail for the health alerts: built for the functions that declare the mailer. */
  readonly mail?: MailPorts;
  /**
   * The admin's alert address set at deployment, for the functions that declare `adminAlerts`:
   * the health alerts' recipient until an admin sets one on /admin/settings. Absent: none set.
   */
  readonly adminAlertEmail?: string;
  /**
   * Where a portal-link request goes once answered (`portalLinks`): the sender function in AWS,
   * a task of the same process locally and in tests.
   */
  readonly portalLinks?: PortalLinkQueue;
  /**
   * The firms' data exports: where the archives go and how a build is started. Absent only where no
   * export is made; an export handler without it fails at once.
   */
  readonly exports?: ExportPorts;
}

/** Where a firm's export is written and offered, and how its build starts in the background. */
export interface ExportPorts {
  readonly files: ExportFiles;
  readonly jobs: ExportJobs;
}
