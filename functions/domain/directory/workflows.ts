import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { DEFAULT_SCHEDULING_INTERVAL_MINUTES, SCHEDULING_INTERVAL_MINUTES } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { DirectoryCounts, WorkflowList, WorkflowListQuery } from '../../../shared/schemas/directory';
import type { Workflow, WorkflowCreateInput, WorkflowUpdateInput } from '../../../shared/schemas/workflow';
import { ConflictError, InvalidInputError, NotFoundError } from '../core/errors';
import type { Clock, ReadAhead, ReplyKey } from '../core/ports';
import type { SessionContext, TokenClaims } from '../identity/sessions';
import { type AuditAction, type AuditTrail, auditTarget } from './audit';
import { ownerEmailOf, type ProfileLookup, visibleWorkflow } from './members';
import {
  type DirectoryCounters,
  type Folders,
  type JoinedWritesOf,
  type ScheduleStarts,
  type WorkflowChanges,
  WorkflowNotFoundError,
  type WorkflowRecord,
  type Workflows,
} from './ports';
import { searchTermsOf } from './search-terms';
import { NO_WORKFLOWS } from './workflow-counts';

/** A workflow as the API shows it (client-side names of spec §3). */
export function toWorkflowView(record: WorkflowRecord): Workflow {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    webhookUrl: record.webhookUrl,
    lawyerEmail: record.lawyerEmail,
    active: record.active,
    type: record.type,
    folderId: record.folderId,
    tags: record.tags,
    category: record.category,
    cronSettings: {
      enabled: record.cronEnabled,
      interval: record.cronInterval,
      lastRun: record.cronLastRun,
      nextRun: record.cronNextRun,
    },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** Whether an edit sends the scheduled calls elsewhere: a new webhook address or a new owner. */
function movesTheCalls(current: WorkflowRecord, input: WorkflowUpdateInput): boolean {
  return (
    (input.webhookUrl !== undefined && input.webhookUrl !== current.webhookUrl) ||
    (input.lawyerEmail !== undefined && input.lawyerEmail !== current.lawyerEmail)
  );
}

/** The fixed scheduling interval of a workflow type (spec §9), 2 minutes for an unknown one. */
export const schedulingIntervalOf = (type: string): number =>
  SCHEDULING_INTERVAL_MINUTES[type as keyof typeof SCHEDULING_INTERVAL_MINUTES] ??
  DEFAULT_SCHEDULING_INTERVAL_MINUTES;

/** A list page's criteria, as GET /api/workflows parses them. */
type WorkflowListCriteria = z.output<typeof WorkflowListQuery>;

export interface WorkflowServiceDependencies {
  readonly workflows: Workflows;
  readonly lawyers: ProfileLookup;
  readonly folders: Pick<Folders, 'getById'>;
  readonly audit: Pick<AuditTrail, 'joinedWrite'>;
  readonly clock: Clock;
  /** The counters the screens' counts come from. */
  readonly counters: DirectoryCounters;
  /**
   * Sends the first runs of a workflow a write puts in the schedule at once. Absent where no
   * switch can turn scheduling on (the worker's automatic pause only turns it off).
   */
  readonly scheduleStarts?: ScheduleStarts;
}

/**
 * Workflows (automations), spec §2 /admin/workflows and the lawyer pages, §7 workflows calls.
 *
 * An admin sees and changes every workflow. A lawyer or notary sees only his own (those whose
 * owner e-mail is his profile's) and may only toggle their scheduling; another lawyer's workflow
 * answers 404 exactly as a missing one, so its existence is not revealed.
 */
export class WorkflowService {
  private readonly workflows: Workflows;
  private readonly lawyers: ProfileLookup;
  private readonly folders: Pick<Folders, 'getById'>;
  private readonly audit: Pick<AuditTrail, 'joinedWrite'>;
  private readonly clock: Clock;
  private readonly counters: DirectoryCounters;
  private readonly scheduleStarts: ScheduleStarts | undefined;

  constructor(deps: WorkflowServiceDependencies) {
    this.workflows = deps.workflows;
    this.lawyers = deps.lawyers;
    this.folders = deps.folders;
    this.audit = deps.audit;
    this.clock = deps.clock;
    this.counters = deps.counters;
    this.scheduleStarts = deps.scheduleStarts;
  }

  /**
   * One page, newest first: of all workflows for an admin (with the names of their lawyers), of his
   * own for a lawyer or notary; kept to the search (name and description, spec §2), the folder,
   * the state, the health and the type asked for.
   */
  async list(
    session: SessionContext,
    query: WorkflowListCriteria,
    ahead: ReadAhead<WorkflowList> | null = null,
  ): Promise<WorkflowList> {
    if (session.role === 'admin') return ahead?.readFor === null ? ahead.reply : this.everyone(query);
    const owner = await ownerEmailOf(this.lawyers, session);
    if (owner === null) return { workflows: [], nextCursor: null, owners: [] };
    // Read ahead under the e-mail his token carries: his only if that is still the owner re-read.
    return ahead !== null && ahead.readFor === owner ? ahead.reply : this.ownedBy(owner, query);
  }

  /**
   * The page `list` will most likely answer, started from what the caller's token claims before his
   * session is re-read (the workflows handler's early read), so that its reads wait beside that one.
   * It decides nothing: `list` uses it only if the session re-read gives the same `readFor`.
   */
  readAhead(
    query: WorkflowListCriteria,
    claims: Pick<TokenClaims, 'role' | 'email'>,
  ): ReadAhead<WorkflowList> | null {
    if (claims.role === 'admin') return { reply: this.everyone(query), readFor: null };
    if (claims.email === null) return null;
    return { reply: this.ownedBy(claims.email, query), readFor: claims.email };
  }

  /** A page of one member's own workflows, the e-mail they are listed under being `owner`. */
  private async ownedBy(owner: string, query: WorkflowListCriteria): Promise<WorkflowList> {
    const terms = query.q?.trim() ? searchTermsOf(query.q) : null;
    // A search of nothing searchable ('***', '😀') finds nothing.
    if (terms && terms.words.length === 0) return { workflows: [], nextCursor: null, owners: [] };
    // A member's list is his own: another lawyer's is not his to filter by.
    const { lawyerEmail: _, ...own } = { ...query, terms };
    const page = await this.workflows.find({ ...own, ownerEmail: owner });
    return { workflows: page.items.map(toWorkflowView), nextCursor: page.nextCursor, owners: [] };
  }

  /** A page of everyone's workflows, the admin's list. Decides nothing about the caller. */
  private async everyone(query: WorkflowListCriteria): Promise<WorkflowList> {
    const terms = query.q?.trim() ? searchTermsOf(query.q) : null;
    if (terms && terms.words.length === 0) return { workflows: [], nextCursor: null, owners: [] };
    const page = await this.workflows.find({ ...query, terms });
    return { workflows: page.items.map(toWorkflowView), nextCursor: page.nextCursor, owners: page.owners };
  }

  /**
   * The counts the screens show, from the counters kept with every change: everyone's automations,
   * lawyers and folders for an admin; his own automations for a lawyer or notary.
   */
  async counts(session: SessionContext): Promise<DirectoryCounts> {
    if (session.role === 'admin') return this.counters.directory();
    const owner = await ownerEmailOf(this.lawyers, session);
    return {
      workflows: owner === null ? NO_WORKFLOWS : await this.counters.ofOwner(owner),
      lawyers: null,
      folders: null,
    };
  }

  async get(id: string, session: SessionContext): Promise<Workflow> {
    return toWorkflowView(await this.visible(id, session));
  }

  /** Spec §4: a new workflow is active, with scheduling off and the fixed interval of its type. */
  async create(
    input: WorkflowCreateInput,
    session: SessionContext,
    /** Its Idempotency-Key: the reply is kept with the workflow, and a retry gets it back. */
    replyKey?: ReplyKey | null,
  ): Promise<Workflow> {
    await this.assertLawyerExists(input.lawyerEmail);
    if (input.folderId) await this.assertFolderExists(input.folderId);
    const now = this.clock.now().toISOString();
    const record: WorkflowRecord = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
      webhookUrl: input.webhookUrl,
      lawyerEmail: input.lawyerEmail,
      active: true,
      type: input.type,
      folderId: input.folderId ?? null,
      tags: input.tags ?? [],
      category: input.category ?? null,
      cronEnabled: false,
      cronInterval: schedulingIntervalOf(input.type),
      cronLastRun: null,
      cronNextRun: null,
      createdAt: now,
      updatedAt: now,
    };
    const view = toWorkflowView(record);
    await this.workflows.create(record, [
      this.audit.joinedWrite(session, 'workflow.create', auditTarget.workflow(record)),
      ...(replyKey ? [{ firstReply: { ...replyKey, body: view, at: now } }] : []),
    ]);
    return view;
  }

  /**
   * An admin's edit. Scheduling stays as it was (fixing a typo must not stop a running automation)
   * unless the calls go elsewhere (new webhook address or owner); an explicit `cronEnabled` wins.
   */
  async update(id: string, input: WorkflowUpdateInput, session: SessionContext): Promise<Workflow> {
    const current = await this.existing(id);
    if (input.lawyerEmail !== undefined && input.lawyerEmail !== current.lawyerEmail) {
      await this.assertLawyerExists(input.lawyerEmail);
    }
    if (input.folderId && input.folderId !== current.folderId) await this.assertFolderExists(input.folderId);
    const changes: WorkflowChanges = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
      ...(input.lawyerEmail !== undefined ? { lawyerEmail: input.lawyerEmail } : {}),
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.folderId !== undefined ? { folderId: input.folderId } : {}),
      ...(input.tags !== undefined ? { tags: input.tags } : {}),
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.cronEnabled !== undefined
        ? { cronEnabled: input.cronEnabled }
        : movesTheCalls(current, input)
          ? { cronEnabled: false }
          : {}),
      ...(input.cronInterval !== undefined
        ? { cronInterval: input.cronInterval }
        : input.type !== undefined && input.type !== current.type
          ? { cronInterval: schedulingIntervalOf(input.type) }
          : {}),
    };
    const updated = await this.guarded(id, () =>
      this.workflows.update(id, changes, this.clock.now().toISOString(), (next) => [
        this.audit.joinedWrite(session, 'workflow.update', auditTarget.workflow(next)),
      ]),
    );
    await this.started(updated);
    return toWorkflowView(updated);
  }

  /** Deletes a workflow at once; its history is left to expire (`Workflows.delete`). */
  async delete(id: string, session: SessionContext): Promise<void> {
    await this.existing(id);
    const deleted = await this.workflows.delete(id, (current) => [
      this.audit.joinedWrite(session, 'workflow.delete', auditTarget.workflow(current)),
    ]);
    if (!deleted) throw new NotFoundError(MESSAGES.workflow.notFound);
  }

  /** Spec §4: flips the active flag from the value read. */
  async toggleActive(id: string, session: SessionContext): Promise<Workflow> {
    await this.existing(id);
    return this.toggle(id, 'active', session);
  }

  /** Spec §4: flips scheduling; a lawyer or notary only on his own workflows. */
  async toggleScheduling(id: string, session: SessionContext): Promise<Workflow> {
    await this.visible(id, session);
    return this.toggle(id, 'cronEnabled', session);
  }

  /**
   * Turns scheduling on or off when it is not already (the automatic pause, 'Reprendre'): the same
   * conditional flip as the switch, from the other value only. Null when there was nothing to flip
   * (already so, changed meanwhile, or deleted).
   */
  async switchScheduling(
    id: string,
    enabled: boolean,
    /** Written with the switch (the audit entry of an admin's 'Reprendre'). */
    alsoWrite?: JoinedWritesOf<WorkflowRecord>,
  ): Promise<Workflow | null> {
    return switchScheduling(
      { workflows: this.workflows, clock: this.clock, scheduleStarts: this.scheduleStarts },
      id,
      enabled,
      alsoWrite,
    );
  }

  private async toggle(
    id: string,
    flag: 'active' | 'cronEnabled',
    session: SessionContext,
  ): Promise<Workflow> {
    const actionOf = (next: WorkflowRecord): AuditAction =>
      flag === 'active'
        ? next.active
          ? 'workflow.activate'
          : 'workflow.deactivate'
        : next.cronEnabled
          ? 'workflow.schedule'
          : 'workflow.unschedule';
    const updated = await this.guarded(id, () =>
      this.workflows.toggle(id, flag, this.clock.now().toISOString(), undefined, (next) =>
        // The trail records admin actions; a lawyer's own scheduling switch is his to make.
        session.role === 'admin'
          ? [this.audit.joinedWrite(session, actionOf(next), auditTarget.workflow(next))]
          : [],
      ),
    );
    await this.started(updated);
    return toWorkflowView(updated);
  }

  /** A workflow in the schedule after a write has its first runs sent at once (when they are due). */
  private async started(workflow: WorkflowRecord): Promise<void> {
    if (workflow.active && workflow.cronEnabled) await this.scheduleStarts?.(workflow.id);
  }

  /** A workflow the caller may see: any for an admin, his own for a lawyer or notary. */
  private visible(id: string, session: SessionContext): Promise<WorkflowRecord> {
    return visibleWorkflow(this.workflows, this.lawyers, session, id);
  }

  private async existing(id: string): Promise<WorkflowRecord> {
    const workflow = await this.workflows.getById(id);
    if (!workflow) throw new NotFoundError(MESSAGES.workflow.notFound);
    return workflow;
  }

  /** A conditional write refused: deleted meanwhile is a 404, changed meanwhile a 409. */
  private async guarded(id: string, write: () => Promise<WorkflowRecord>): Promise<WorkflowRecord> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      if (await this.workflows.getById(id))
        throw new ConflictError(MESSAGES.workflow.changed, { cause: error });
      throw new NotFoundError(MESSAGES.workflow.notFound, { cause: error });
    }
  }

  private async assertLawyerExists(email: string): Promise<void> {
    if (!(await this.lawyers.findByEmail(email)))
      throw new InvalidInputError('lawyerEmail', MESSAGES.workflow.unknownLawyer);
  }

  private async assertFolderExists(folderId: string): Promise<void> {
    if (!(await this.folders.getById(folderId)))
      throw new InvalidInputError('folderId', MESSAGES.workflow.unknownFolder);
  }
}

/**
 * Scheduling switched on or off by the system (the health's pause) or by 'Reprendre' (audited
 * through `alsoWrite`); null when the workflow no longer exists. A function of its own so that the health's bundles
 * need the workflows' repository only, not the whole WorkflowService.
 */
export async function switchScheduling(
  deps: {
    readonly workflows: Pick<Workflows, 'toggle'>;
    readonly clock: Clock;
    readonly scheduleStarts?: ScheduleStarts | undefined;
  },
  id: string,
  enabled: boolean,
  /** Written with the switch, in its transaction (the audit entry of an admin's 'Reprendre'). */
  alsoWrite?: JoinedWritesOf<WorkflowRecord>,
): Promise<Workflow | null> {
  let updated: WorkflowRecord;
  try {
    updated = await deps.workflows.toggle(
      id,
      'cronEnabled',
      deps.clock.now().toISOString(),
      !enabled,
      alsoWrite,
    );
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return null;
    throw error;
  }
  if (updated.active && updated.cronEnabled) await deps.scheduleStarts?.(updated.id);
  return toWorkflowView(updated);
}
