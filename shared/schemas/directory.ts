import * as z from 'zod';

import { MESSAGES } from '../messages';
import { AuditEntry } from './audit';
import { License } from './billing';
import { EmailAddress, NextCursor, PageQuery } from './common';
import { Folder } from './folder';
import { Lawyer, LawyerInput } from './lawyer';
import { LicenseKeyInput, LicenseType } from './session';
import { Workflow } from './workflow';

/**
 * Requests and replies of the directory calls (lawyers, profile, workflows, folders, licences,
 * audit trail) that are not entities themselves. The entities live beside their own schemas.
 */

/** GET /api/lawyers: one page of lawyers, newest first, without secrets (query: PageQuery). */
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

/**
 * GET /api/workflows: one page, newest first (query: PageQuery); an admin pages through all, a
 * lawyer or notary through his own.
 */
export const WorkflowList = z.object({ workflows: z.array(Workflow), nextCursor: NextCursor });
export type WorkflowList = z.infer<typeof WorkflowList>;

/** GET /api/folders: one page, newest first (query: PageQuery). */
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
