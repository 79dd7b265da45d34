import { LicenseRepository } from '../../data/identity/licenses';
import { SecondFactorReader } from '../../data/identity/second-factor-item';
import { SessionRepository } from '../../data/identity/sessions';
import type { Table } from '../../data/table/table';
import type { Clock } from '../../domain/core/ports';
import { SessionService } from '../../domain/identity/sessions';
import type { AppKeys } from '../../security/app-keys';

/*
 * The check of a caller's session over a world's table, alone in its module: the API pipeline
 * loads it only in the functions that have the session key (`BUNDLED_NEED_SESSIONS`).
 */

export const sessionServiceOf = (
  deps: { readonly table: Table; readonly clock: Clock },
  keys: Pick<AppKeys, 'sessionSigningKey'>,
) =>
  new SessionService({
    sessions: new SessionRepository(deps.table),
    licenses: new LicenseRepository(deps.table),
    secondFactors: new SecondFactorReader(deps.table),
    keys,
    clock: deps.clock,
  });
