import type { WorkflowType } from '../../../shared/constants';
import type { WorkflowHealthFilter } from '../../../shared/schemas/directory';
import type { LawyerSecrets } from '../../../shared/schemas/lawyer';
import type { LicenseType } from '../../../shared/schemas/session';
import type { FirstReply, Page } from '../core/ports';
import type { LicenseRecord } from '../identity/ports';
import type { SearchTerms } from './search-terms';
import type { WorkflowCounts } from './workflow-counts';

/* Lawyers, folders, workflows and the audit trail as the directory services store them (`data/directory`). */

/** A lawyer (or notary) profile as stored; secrets live in the secret store, the key as hash + cipher. */
export interface LawyerRecord {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  mainEmail: string;
  emailSignature: string | null;
  reminderFrequency: number;
  phoneNumber: string | null;
  officeName: string | null;
  licenseKeyHash: string | null;
  licenseKeyCiphertext: string | null;
  hasGooglePassword: boolean;
  hasGoogleCredentials: boolean;
  createdAt: string;
  updatedAt: string;
  /** When SES reported his licence e-mail bounced or complained of; null once one was delivered. */
  licenseEmailUndeliveredAt?: string | null;
}

/** The e-mail or the licence key of a lawyer already belongs to another lawyer. */
export class LawyerConflictError extends Error {
  override name = 'LawyerConflictError';
}

/** The lawyer changed or disappeared between the read and the write. */
export class LawyerChangedError extends Error {
  override name = 'LawyerChangedError';
}

/** The automatic pause of a workflow's scheduling: when, and why ('Suspendue après 5 échecs…'). */
export interface AutomaticPause {
  readonly workflowId: string;
  readonly at: string;
  readonly reason: string;
}

/** A write that joins a lawyer's own: both happen, or neither does. */
export type JoinedWrite =
  | { readonly newLicense: LicenseRecord }
  | { readonly removedLicense: string }
  | { readonly licenseRole: LicenseRoleWrite }
  | { readonly auditEntry: AuditRecord }
  | { readonly firstReply: FirstReply }
  /** With the scheduling switch turned off by the automatic pause: the pause record. */
  | { readonly automaticPause: AutomaticPause }
  /** With the switch turned on by 'Reprendre': the pause record goes (id of the workflow). */
  | { readonly pauseEnded: string };

/** Writes joining a change, given the record as the change leaves it (its audit entry names it). */
export type JoinedWritesOf<T> = (changed: T) => readonly JoinedWrite[];

/** A licence's type changed, provided it is still `from` when written. */
export interface LicenseRoleWrite {
  readonly keyHash: string;
  readonly from: LicenseType;
  readonly to: LicenseType;
  readonly at: string;
}

/**
 * Lawyer profiles (spec §7 lawyers calls). The e-mail and the licence key each belong to one lawyer
 * at most: a write that would give them to a second one fails with `LawyerConflictError`.
 */
export interface Lawyers {
  create(record: LawyerRecord, alsoWrite?: readonly JoinedWrite[]): Promise<void>;
  /** @throws LawyerChangedError when the profile changed since `previous` was read. */
  update(previous: LawyerRecord, next: LawyerRecord, alsoWrite?: readonly JoinedWrite[]): Promise<void>;
  getById(id: string): Promise<LawyerRecord | null>;
  findByEmail(email: string): Promise<LawyerRecord | null>;
  findByLicenseHash(keyHash: string): Promise<LawyerRecord | null>;
  /** The lawyer holding the first of these key hashes that has one (a key's `vault.hashes`). */
  findByAnyLicenseHash(keyHashes: readonly string[]): Promise<LawyerRecord | null>;
  /**
   * One page of lawyers, newest first; with a search, those it finds by first name, last name,
   * e-mail or office name, reading a bounded number of store pages (the page may then be shorter).
   */
  page(limit: number, cursor?: string, terms?: SearchTerms | null): Promise<Page<LawyerRecord>>;
  delete(record: LawyerRecord, alsoWrite?: readonly JoinedWrite[]): Promise<void>;
  /**
   * Marks (a time) or clears (null) his licence e-mail as undelivered; a save that read him before
   * then is refused as changed, so it never drops the mark. `alsoWrite` (the audit entry of an
   * admin's resend) joins its transaction, and is written even when he was deleted meanwhile.
   */
  markLicenseEmail(
    id: string,
    undeliveredAt: string | null,
    now: string,
    alsoWrite?: readonly JoinedWrite[],
  ): Promise<void>;
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

/** Total, Actives, Planifiées of a set of automations. */
export interface FlagCounts {
  total: number;
  active: number;
  scheduled: number;
}

/** A folder as stored, with the counts of its automations (kept on it by every change to them). */
export interface FolderRecord {
  id: string;
  name: string;
  description: string | null;
  counts: FlagCounts;
  createdAt: string;
  updatedAt: string;
}

/** No folder has that id. */
export class FolderNotFoundError extends Error {
  override name = 'FolderNotFoundError';
}

/** The folder still holds automations (one was filed in it meanwhile): it is not deleted. */
export class FolderNotEmptyError extends Error {
  override name = 'FolderNotEmptyError';
}

export interface Folders {
  /** Writes a new folder (its counts start at zero) and counts it, with `alsoWrite` (its audit entry...). */
  create(record: Omit<FolderRecord, 'counts'>, alsoWrite?: readonly JoinedWrite[]): Promise<void>;
  getById(id: string): Promise<FolderRecord | null>;
  /** One page of folders, newest first; with a search, those whose name it finds (bounded read). */
  page(limit: number, cursor?: string, terms?: SearchTerms | null): Promise<Page<FolderRecord>>;
  /** @throws FolderNotFoundError */
  update(
    id: string,
    changes: Pick<FolderRecord, 'name' | 'description'>,
    now: string,
    alsoWrite?: JoinedWritesOf<FolderRecord>,
  ): Promise<FolderRecord>;
  /**
   * Deletes a folder that holds no automation, as read.
   * @throws FolderNotEmptyError when one was filed in it meanwhile.
   */
  delete(folder: FolderRecord, alsoWrite?: readonly JoinedWrite[]): Promise<void>;
}

/** A workflow as the application sees it (spec §3 workflows table), with its schedule state. */
export interface WorkflowRecord {
  id: string;
  name: string;
  description: string;
  webhookUrl: string;
  lawyerEmail: string;
  active: boolean;
  type: WorkflowType;
  folderId: string | null;
  /** Display fields an admin sets (spec §3): free labels, none for a workflow stored before them. */
  tags: string[];
  category: string | null;
  cronEnabled: boolean;
  cronInterval: number | null;
  cronLastRun: string | null;
  cronNextRun: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Sends at once the first runs of a workflow a write just put in the schedule (switched on, edited,
 * resumed), rather than leaving them to the next tick: the scheduling area's, wired by the runtime.
 */
export type ScheduleStarts = (workflowId: string) => Promise<void>;

/** The fields an admin edits (spec: update by id). */
export type WorkflowChanges = Partial<
  Pick<
    WorkflowRecord,
    | 'name'
    | 'description'
    | 'webhookUrl'
    | 'lawyerEmail'
    | 'type'
    | 'folderId'
    | 'tags'
    | 'category'
    | 'cronEnabled'
    | 'cronInterval'
  >
>;

/** The workflow is gone, or changed between the read and the write. */
export class WorkflowNotFoundError extends Error {
  override name = 'WorkflowNotFoundError';
}

/** What one page of workflows is asked for (every criterion optional but the page). */
export interface WorkflowQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
  /** The search's terms, null when none. */
  readonly terms?: SearchTerms | null | undefined;
  /** One owner's workflows (a member's own list): no lawyers' names with them. */
  readonly ownerEmail?: string | undefined;
  /** One lawyer's workflows, as an admin filters everyone's (with the lawyer's name). */
  readonly lawyerEmail?: string | undefined;
  readonly folderId?: string | undefined;
  readonly active?: boolean | undefined;
  /** Scheduling on (true) or off (false). */
  readonly scheduled?: boolean | undefined;
  /** Paused by the automatic pause, or its last run failed. */
  readonly health?: WorkflowHealthFilter | undefined;
  readonly type?: WorkflowType | undefined;
}

/** The name of the lawyer of an owner e-mail (one who has a profile). */
export interface OwnerName {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

/** A page of workflows and the names of their lawyers (an admin's page; a member's names none). */
export interface WorkflowPage extends Page<WorkflowRecord> {
  readonly owners: OwnerName[];
}

/*
 * Every change an admin makes writes its audit entry (`alsoWrite`) in the change's own
 * transaction: saved together or not at all.
 */
export interface Workflows {
  create(record: WorkflowRecord, alsoWrite?: readonly JoinedWrite[]): Promise<void>;
  getById(id: string): Promise<WorkflowRecord | null>;
  /** The workflows of these ids that exist, in one read. */
  getMany(ids: readonly string[]): Promise<WorkflowRecord[]>;
  /**
   * One page of workflows, newest first: everyone's, one owner's or one folder's, kept to the
   * search, flags and type asked for, reading a bounded number of store pages (the page may then be
   * shorter, possibly empty, and its cursor goes on).
   */
  find(query: WorkflowQuery): Promise<WorkflowPage>;
  listByOwner(lawyerEmail: string): Promise<WorkflowRecord[]>;
  /** Brings a lawyer's workflows' search to his name as it now is (his profile created or renamed). */
  reindexOwner(lawyerEmail: string): Promise<void>;
  listByFolder(folderId: string): Promise<WorkflowRecord[]>;
  /** @throws WorkflowNotFoundError when it is gone or changed meanwhile. */
  update(
    id: string,
    changes: WorkflowChanges,
    now: string,
    alsoWrite?: JoinedWritesOf<WorkflowRecord>,
  ): Promise<WorkflowRecord>;
  /**
   * Flips `active` or `cronEnabled` from the value read (or only from `from`), conditionally.
   * @throws WorkflowNotFoundError when it is gone or changed meanwhile.
   */
  toggle(
    id: string,
    flag: 'active' | 'cronEnabled',
    now: string,
    from?: boolean,
    alsoWrite?: JoinedWritesOf<WorkflowRecord>,
  ): Promise<WorkflowRecord>;
  /** Takes every workflow of a folder out of it; returns how many. */
  detachFromFolder(folderId: string, now: string): Promise<number>;
  /** Deletes a workflow at once, its history left to expire; the workflow as deleted, or null when gone. */
  delete(id: string, alsoWrite?: JoinedWritesOf<WorkflowRecord>): Promise<WorkflowRecord | null>;
  /** Deletes every workflow of a lawyer; returns how many. */
  deleteByOwner(lawyerEmail: string): Promise<number>;
}

/** The counters kept with every change to what they count (`workflow-counts.ts`). */
export interface DirectoryCounters {
  /** Everyone's workflow counts, and how many lawyers and folders there are. */
  directory(): Promise<{ workflows: WorkflowCounts; lawyers: number; folders: number }>;
  /** The counts of one owner e-mail's workflows. */
  ofOwner(email: string): Promise<WorkflowCounts>;
}

/** One audit entry as stored: who did what, when, to what. */
export interface AuditRecord {
  id: string;
  at: string;
  /** The admin's e-mail, or 'admin' when his licence has none. */
  actorEmail: string;
  /** What was done, as `<resource>.<verb>` ('lawyer.delete', 'lawyer.secrets.reveal', ...). */
  action: string;
  /** What it was done to, as `<resource>:<id>`. */
  target: string;
  /**
   * Who or what the target was when it happened, kept so the trail still says it after the target
   * is deleted. Never a key or a secret. Null in entries written before labels were kept.
   */
  targetLabel: string | null;
}

export interface AuditLog {
  record(record: AuditRecord): Promise<void>;
  /** One page of entries, newest first, and the cursor of the next page (null on the last). */
  page(limit: number, cursor?: string): Promise<{ entries: AuditRecord[]; nextCursor: string | null }>;
}

/** A licence's second factor, erased with the licence (the second-factor repository does it). */
export interface LicenseFactors {
  erase(keyHash: string): Promise<void>;
}
