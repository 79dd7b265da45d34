import * as z from 'zod';

import { WORKFLOW_TYPES } from '../constants';
import { MESSAGES } from '../messages';
import { AuditEntry } from './audit';
import { License } from './billing';
import { EmailAddress, NextCursor, PageQuery, SearchPageQuery } from './common';
import { FlagCounts, Folder } from './folder';
import { Lawyer, LawyerInput } from './lawyer';
import { LicenseKeyInput, LicenseType } from './session';
import { Workflow } from './workflow';

/**
 * Requests and replies of the directory calls (lawyers, profile, workflows, folders, licences,
 * audit trail) that are not entities themselves. The entities live beside their own schemas.
 */

/**
 * GET /api/lawyers query: a page and the search over first name, last name, e-mail and office name
 * (spec §2 /admin/lawyers, /admin/notaries).
 */
export const LawyerListQuery = SearchPageQuery;
export type LawyerListQuery = SearchPageQuery;

/** GET /api/lawyers: one page of lawyers, newest first, without secrets (query: LawyerListQuery). */
export const LawyerList = z.object({ lawyers: z.array(Lawyer), nextCursor: NextCursor });
export type LawyerList = z.infer<typeof LawyerList>;

/**
 * A lawyer as saved (PUT /api/lawyers, PUT /api/me): the normalised fields of `LawyerInput`, and
 * whether the secret fields were sent at all. A secret field that is left out keeps its stored
 * value; one that is sent is normalised as spec §5 says (trimmed, null when empty), so an empty
 * Google password sent on purpose clears it.
 */
export const LawyerSaveRequest = LawyerInput.in.transform((input) => ({
  ...LawyerInput.out.parse(input),
  googlePasswordGiven: input.googlePassword !== undefined,
  googleCredentialsGiven: input.googleCredentials !== undefined,
}));
export type LawyerSaveRequest = z.input<typeof LawyerSaveRequest>;
export type NormalizedLawyerSave = z.output<typeof LawyerSaveRequest>;

/**
 * PUT /api/lawyers (the admin's save). `createOnly` is 'Nouvel avocat': when the e-mail or the
 * licence key already belongs to a lawyer, nothing is written and the reply is a 409 naming him
 * (`existingLawyer`), so that the admin confirms before the spec's save rule updates him.
 */
export const AdminLawyerSaveRequest = LawyerInput.in
  .extend({ createOnly: z.boolean().optional() })
  .transform(({ createOnly, ...input }) => ({
    ...LawyerSaveRequest.parse(input),
    createOnly: createOnly === true,
  }));
export type AdminLawyerSaveRequest = z.input<typeof AdminLawyerSaveRequest>;
export type NormalizedAdminLawyerSave = z.output<typeof AdminLawyerSaveRequest>;

/** PUT /api/lawyers reply: the lawyer as saved and whether he was created (201) or updated (200). */
export const LawyerSaveReply = z.object({ lawyer: Lawyer, created: z.boolean() });
export type LawyerSaveReply = z.infer<typeof LawyerSaveReply>;

/**
 * POST /api/lawyers/lookup (spec §5 lawyer look-up): by licence key, then by the licence's e-mail.
 * A POST so that the key never travels in a URL.
 */
export const LawyerLookupRequest = z
  .object({
    licenseKey: LicenseKeyInput.optional(),
    email: EmailAddress().optional(),
  })
  .refine((request) => request.licenseKey !== undefined || request.email !== undefined, {
    message: MESSAGES.login.keyRequired,
  });
export type LawyerLookupRequest = z.input<typeof LawyerLookupRequest>;

/** The lawyer found (or null) and the e-mail to show: the record's, else the licence's. */
export const LawyerLookupReply = z.object({ lawyer: Lawyer.nullable(), email: z.string().nullable() });
export type LawyerLookupReply = z.infer<typeof LawyerLookupReply>;

/**
 * GET and PUT /api/me: the signed-in lawyer's own profile (null while not configured) and the
 * e-mail his session should carry; `sessionEmailChanged` tells the client to update its session.
 */
export const ProfileReply = z.object({
  profile: Lawyer.nullable(),
  sessionEmail: z.string(),
  sessionEmailChanged: z.boolean(),
});
export type ProfileReply = z.infer<typeof ProfileReply>;

/** A `true` / `false` parameter of a list call, refused otherwise with `message`. */
const FlagParam = (message: string) =>
  z
    .enum(['true', 'false'], message)
    .transform((value) => value === 'true')
    .optional();

/**
 * The health a list is kept to: `paused` ('Suspendue': scheduling stopped by the automatic pause,
 * until 'Reprendre'), `failing` (its last run failed: the failing set of the dashboards).
 */
export const WORKFLOW_HEALTH_FILTERS = ['paused', 'failing'] as const;
export type WorkflowHealthFilter = (typeof WORKFLOW_HEALTH_FILTERS)[number];

/**
 * GET /api/workflows query: a page, the search (name, description, category and tags; the
 * lawyer's name too for an admin), and the folder, lawyer (an admin's), state (active, scheduled),
 * health (paused, failing) and type to keep (the folder panel, the admin's filters, a member's
 * sections and tabs).
 */
export const WorkflowListQuery = SearchPageQuery.extend({
  folderId: z.uuid(MESSAGES.request.invalidFolderId).optional(),
  lawyerEmail: EmailAddress(MESSAGES.request.invalidLawyerEmail).optional(),
  active: FlagParam(MESSAGES.request.invalidActive),
  scheduled: FlagParam(MESSAGES.request.invalidScheduled),
  health: z.enum(WORKFLOW_HEALTH_FILTERS, MESSAGES.request.invalidHealthFilter).optional(),
  type: z.enum(WORKFLOW_TYPES, MESSAGES.request.invalidWorkflowType).optional(),
});
export type WorkflowListQuery = z.input<typeof WorkflowListQuery>;

/** The name of a lawyer owning automations of a page, for its cards. */
export const WorkflowOwner = z.object({ email: z.string(), firstName: z.string(), lastName: z.string() });
export type WorkflowOwner = z.infer<typeof WorkflowOwner>;

/**
 * GET /api/workflows: one page, newest first (query: WorkflowListQuery); an admin pages through all,
 * a lawyer or notary through his own. `owners` names the lawyers of the page's automations (an
 * admin's page; a member's names none).
 */
export const WorkflowList = z.object({
  workflows: z.array(Workflow),
  nextCursor: NextCursor,
  owners: z.array(WorkflowOwner).default([]),
});
export type WorkflowList = z.infer<typeof WorkflowList>;

/**
 * Total, Actives, Planifiées, those running (active and scheduled) and the count of each type, kept
 * by the server with each change.
 */
export const WorkflowCounts = FlagCounts.extend({
  running: z.number().int(),
  byType: z.object(
    Object.fromEntries(WORKFLOW_TYPES.map((type) => [type, z.number().int()])) as Record<
      (typeof WORKFLOW_TYPES)[number],
      z.ZodNumber
    >,
  ),
});
export type WorkflowCounts = z.infer<typeof WorkflowCounts>;

/**
 * GET /api/counts: the automations' counts (an admin: everyone's; a lawyer or notary: his own) and,
 * for an admin, how many lawyers and folders there are (null for a member).
 */
export const DirectoryCounts = z.object({
  workflows: WorkflowCounts,
  lawyers: z.number().int().nullable(),
  folders: z.number().int().nullable(),
});
export type DirectoryCounts = z.infer<typeof DirectoryCounts>;

/** GET /api/folders query: a page and the search over the folder's name (spec §2). */
export const FolderListQuery = SearchPageQuery;
export type FolderListQuery = SearchPageQuery;

/** GET /api/folders: one page, newest first (query: FolderListQuery). */
export const FolderList = z.object({ folders: z.array(Folder), nextCursor: NextCursor });
export type FolderList = z.infer<typeof FolderList>;

/** GET /api/licenses query (spec: select by user_email and license_type). */
export const LicenseByEmailQuery = z.object({
  userEmail: EmailAddress(),
  licenseType: LicenseType.default('lawyer'),
});
export type LicenseByEmailQuery = z.input<typeof LicenseByEmailQuery>;

/**
 * POST /api/licenses/find (spec: select by license_key, optionally of one type and active): a POST
 * so that the key never travels in a URL.
 */
export const LicenseFindRequest = z.object({
  licenseKey: LicenseKeyInput,
  licenseType: LicenseType.optional(),
  activeOnly: z.boolean().optional(),
});
export type LicenseFindRequest = z.input<typeof LicenseFindRequest>;

/** The licence found, or null (the spec's not-found case is not an error). */
export const LicenseLookupReply = z.object({ license: License.nullable() });
export type LicenseLookupReply = z.infer<typeof LicenseLookupReply>;

/** GET /api/audit query: a page size and the opaque cursor of the previous page, as every list. */
export const AuditQuery = PageQuery;
export type AuditQuery = PageQuery;

/** One page of the audit trail, newest first; `nextCursor` is null on the last page. */
export const AuditPage = z.object({ entries: z.array(AuditEntry), nextCursor: NextCursor });
export type AuditPage = z.infer<typeof AuditPage>;

/** POST /api/lawyers/{id}/license-email: the address the licence key was sent to again. */
export const LicenseEmailResent = z.object({ sentTo: z.string() });
export type LicenseEmailResent = z.infer<typeof LicenseEmailResent>;

/** PUT /api/lawyers/{id}/license-type: a lawyer's licence made a notary's one, or back. */
export const LicenseRoleChange = z.object({
  licenseType: z.enum(['lawyer', 'notary'], { error: MESSAGES.licenseRole.invalid }),
});
export type LicenseRoleChange = z.infer<typeof LicenseRoleChange>;

/** GET /api/lawyers/{id}/license-type: the type of the licence a lawyer holds, read from the licence. */
export const LicenseRoleView = z.object({ licenseType: LicenseType.nullable() });
export type LicenseRoleView = z.infer<typeof LicenseRoleView>;
