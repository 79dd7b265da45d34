import { LawyerRepository } from '../../data/directory/lawyers';
import { LicenseRepository } from '../../data/identity/licenses';
import { SessionRepository } from '../../data/identity/sessions';
import { SecondFactorAttemptRepository } from '../../data/second-factor/second-factor-attempts';
import { SecondFactorRepository } from '../../data/second-factor/second-factors';
import { WebAuthnChallengeRepository } from '../../data/second-factor/webauthn-challenges';
import type { Table } from '../../data/table/table';
import type { Clock } from '../../domain/core/ports';
import type { SecondFactorSettings } from '../../domain/second-factor/ports';
import { SecondFactorService } from '../../domain/second-factor/second-factor';
import type { AppKeys } from '../../security/app-keys';
import { auditTrailOf } from './directory';
import { sessionServiceOf } from './identity';

/* The second-factor service of a world, over its table. */

export const secondFactorServiceOf = (
  deps: { readonly table: Table; readonly clock: Clock; readonly secondFactor: SecondFactorSettings },
  keys: AppKeys,
) =>
  new SecondFactorService({
    factors: new SecondFactorRepository(deps.table),
    attempts: new SecondFactorAttemptRepository(deps.table),
    challenges: new WebAuthnChallengeRepository(deps.table),
    licenses: new LicenseRepository(deps.table),
    lawyers: new LawyerRepository(deps.table),
    sessionRecords: new SessionRepository(deps.table),
    sessions: sessionServiceOf(deps, keys),
    audit: auditTrailOf(deps),
    keys,
    clock: deps.clock,
    settings: deps.secondFactor,
  });
