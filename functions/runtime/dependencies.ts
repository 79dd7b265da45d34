import type { LawyerSecrets } from '../../shared/schemas/lawyer';
import type { Table } from '../data/table/table';
import type { MailPorts } from '../domain/core/mailer';
import type { Metrics } from '../domain/core/metrics';
import type { AppKeys } from '../security/app-keys';
import type { BillingPorts } from './billing-ports';
import type { SchedulingPorts } from './scheduling-ports';

/** The time source; `sleep` is here so that tests and the local runtime control waiting too. */
export interface Clock {
  now(): Date;
  sleep(milliseconds: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
};

/**
 * Structured logs (Powertools' Logger in Lambda and locally: `runtime/powertools.ts`). Callers pass
 * facts, never a body, a header, a key or a token.
 */
export interface Logger {
  info(message: string, facts?: Record<string, unknown>): void;
  warn(message: string, facts?: Record<string, unknown>): void;
  error(message: string, facts?: Record<string, unknown>): void;
}

/**
 * Where each lawyer's Google password and OAuth client are kept, one entry per lawyer: Secrets
 * Manager in AWS, a 0600 file locally, memory in tests. Never the table, never a log line.
 */
export interface LawyerSecretStore {
  /** Writes (creates or replaces) the secrets of a lawyer. */
  put(lawyerId: string, secrets: LawyerSecrets): Promise<void>;
  /** The secrets of a lawyer, or null when he has none. */
  get(lawyerId: string): Promise<LawyerSecrets | null>;
  /** Removes the secrets of a lawyer at once (no recovery window); nothing to remove is not an error. */
  delete(lawyerId: string): Promise<void>;
}

/** The WebAuthn relying party: the site's host name (rpID) and its origin, as the browser sees them. */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
}

/** How the second factor is applied in one environment. */
export interface SecondFactorSettings {
  /**
   * Whether an admin licence must pass a second factor (enrolling one at its first sign-in). Always
   * in AWS; `REQUIRE_SECOND_FACTOR=false` lifts it locally for demos and test suites. A licence that
   * enrolled a factor is asked for it either way.
   */
  readonly requiredForAdmins: boolean;
  /** Read on first use: only the second-factor function is given the site's address. */
  readonly relyingParty: () => RelyingParty;
}

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
}
