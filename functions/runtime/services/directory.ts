import { AuditRepository } from '../../data/directory/audit';
import { CounterRepository } from '../../data/directory/counters';
import { FolderRepository } from '../../data/directory/folders';
import { LawyerRepository } from '../../data/directory/lawyers';
import { WorkflowRepository } from '../../data/directory/workflows';
import { LicenseRepository } from '../../data/identity/licenses';
import { SessionRepository } from '../../data/identity/sessions';
import { SecondFactorRepository } from '../../data/second-factor/second-factors';
import type { Table } from '../../data/table/table';
import type { Clock } from '../../domain/core/ports';
import { AuditTrail } from '../../domain/directory/audit';
import { FolderService } from '../../domain/directory/folders';
import { LawyerService, type LawyerServiceDependencies } from '../../domain/directory/lawyers';
import type { ProfileLookup } from '../../domain/directory/members';
import type { ScheduleStarts } from '../../domain/directory/ports';
import { ProfileService } from '../../domain/directory/profile';
import { WorkflowService } from '../../domain/directory/workflows';
import { createLicenseKeyVault } from '../../security/license-key-vault';
import type { AppDependencies } from '../dependencies';
import { loadSessionService } from './session-check';

/* The directory services of a world, over its table. */

type TableAndClock = { readonly table: Table; readonly clock: Clock };

export const auditTrailOf = (deps: TableAndClock) =>
  new AuditTrail(new AuditRepository(deps.table), deps.clock);

/** Finds a member's profile from his licence (`domain/directory/members.ts`). */
export const profileLookupOf = (table: Table): ProfileLookup => new LawyerRepository(table);

/** The workflow service; given `scheduleStarts`, a write that schedules a workflow sends its first runs at once. */
export const workflowServiceOf = (deps: TableAndClock, scheduleStarts?: ScheduleStarts) =>
  new WorkflowService({
    workflows: new WorkflowRepository(deps.table),
    lawyers: new LawyerRepository(deps.table),
    folders: new FolderRepository(deps.table),
    audit: auditTrailOf(deps),
    clock: deps.clock,
    counters: new CounterRepository(deps.table),
    ...(scheduleStarts ? { scheduleStarts } : {}),
  });

export const folderServiceOf = (deps: TableAndClock) =>
  new FolderService({
    folders: new FolderRepository(deps.table),
    workflows: new WorkflowRepository(deps.table),
    audit: auditTrailOf(deps),
    clock: deps.clock,
  });

type LawyerWorld = Pick<AppDependencies, 'table' | 'appKeys' | 'lawyerSecrets' | 'clock' | 'logger'>;

/** The lawyer service over a world's dependencies (the server keys read on first use). */
export async function lawyerServiceOf(
  deps: LawyerWorld,
  endSubscription?: LawyerServiceDependencies['endSubscription'],
): Promise<LawyerService> {
  const keys = await deps.appKeys();
  return new LawyerService({
    requireRecentSecondFactor: async (session) =>
      (await loadSessionService(deps, keys)).requireRecentSecondFactor(session),
    lawyers: new LawyerRepository(deps.table),
    licenses: new LicenseRepository(deps.table),
    workflows: new WorkflowRepository(deps.table),
    sessions: new SessionRepository(deps.table),
    secondFactors: new SecondFactorRepository(deps.table),
    audit: auditTrailOf(deps),
    vault: createLicenseKeyVault(keys),
    secrets: deps.lawyerSecrets,
    clock: deps.clock,
    logger: deps.logger,
    ...(endSubscription ? { endSubscription } : {}),
  });
}

/** A member's own profile service (the server keys read on first use). */
export async function profileServiceOf(deps: LawyerWorld): Promise<ProfileService> {
  return new ProfileService({
    lawyers: new LawyerRepository(deps.table),
    workflows: new WorkflowRepository(deps.table),
    sessions: new SessionRepository(deps.table),
    vault: createLicenseKeyVault(await deps.appKeys()),
    secrets: deps.lawyerSecrets,
    clock: deps.clock,
    logger: deps.logger,
  });
}
