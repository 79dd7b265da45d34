import { LawyerRepository } from '../../data/directory/lawyers';
import { LicenseRepository } from '../../data/identity/licenses';
import { SessionRepository } from '../../data/identity/sessions';
import { RememberedDeviceRepository } from '../../data/second-factor/remembered-devices';
import { SecondFactorAttemptRepository } from '../../data/second-factor/second-factor-attempts';
import { SecondFactorRepository } from '../../data/second-factor/second-factors';
import { WebAuthnChallengeRepository } from '../../data/second-factor/webauthn-challenges';
import type { Table } from '../../data/table/table';
import type { Clock, Logger, MailPorts } from '../../domain/core/ports';
import type { SecondFactorDeps, SecondFactorStores } from '../../domain/second-factor/context';
import type { SecondFactorSettings } from '../../domain/second-factor/ports';
import type { AppKeys } from '../../security/app-keys';
import { auditTrailOf } from './directory';
import { sessionOpenerOf } from './identity';
import { sessionServiceOf } from './sessions';

/* What the second factor's services work with, in a world, over its table. */

/** The second factor's ports, each a repository over the world's table. */
export const secondFactorStoresOf = (table: Table): SecondFactorStores => ({
  factors: new SecondFactorRepository(table),
  attempts: new SecondFactorAttemptRepository(table),
  devices: new RememberedDeviceRepository(table),
  challenges: new WebAuthnChallengeRepository(table),
  licenses: new LicenseRepository(table),
  lawyers: new LawyerRepository(table),
  sessionRecords: new SessionRepository(table),
});

export const secondFactorDepsOf = (
  deps: {
    readonly table: Table;
    readonly clock: Clock;
    readonly logger: Logger;
    readonly secondFactor: SecondFactorSettings;
    readonly mail?: MailPorts;
  },
  keys: AppKeys,
): SecondFactorDeps => ({
  ...secondFactorStoresOf(deps.table),
  keys,
  clock: deps.clock,
  settings: deps.secondFactor,
  logger: deps.logger,
  sessions: sessionServiceOf(deps, keys),
  opener: sessionOpenerOf(deps, keys),
  audit: auditTrailOf(deps),
  ...(deps.mail ? { mail: deps.mail } : {}),
});
