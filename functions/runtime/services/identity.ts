import { LawyerRepository } from '../../data/directory/lawyers';
import { LicenseRepository } from '../../data/identity/licenses';
import { SessionRepository } from '../../data/identity/sessions';
import { SignInAttemptRepository } from '../../data/identity/sign-in-attempts';
import type { Table } from '../../data/table/table';
import type { Clock } from '../../domain/core/ports';
import { memberLookupOf } from '../../domain/directory/members';
import { LicenseLookupService } from '../../domain/identity/license-lookup';
import { SessionOpener } from '../../domain/identity/session-opener';
import { SignInService } from '../../domain/identity/sign-in';
import type { SecondFactorSettings } from '../../domain/second-factor/ports';
import type { AppKeys } from '../../security/app-keys';
import type { LicenseKeyVault } from '../../security/license-key-vault';

/* The identity services of a world, over its table. */

/** What opens sessions: only the functions that sign in (or complete a sign-in) build it. */
export const sessionOpenerOf = (
  deps: { readonly table: Table; readonly clock: Clock },
  keys: Pick<AppKeys, 'sessionSigningKey'>,
) => new SessionOpener({ sessions: new SessionRepository(deps.table), keys, clock: deps.clock });

export const signInServiceOf = (
  deps: {
    readonly table: Table;
    readonly clock: Clock;
    readonly secondFactor: Pick<SecondFactorSettings, 'requiredForAdmins'>;
  },
  keys: AppKeys,
) =>
  new SignInService({
    licenses: new LicenseRepository(deps.table),
    members: memberLookupOf(new LawyerRepository(deps.table)),
    attempts: new SignInAttemptRepository(deps.table),
    sessions: sessionOpenerOf(deps, keys),
    keys,
    clock: deps.clock,
    secondFactorSettings: deps.secondFactor,
  });

export const licenseLookupServiceOf = (table: Table, vault: LicenseKeyVault) =>
  new LicenseLookupService({
    licenses: new LicenseRepository(table),
    members: memberLookupOf(new LawyerRepository(table)),
    vault,
  });
