import { SuccessReply } from '../schemas/common';
import {
  AdminLawyerSaveRequest,
  AuditPage,
  AuditQuery,
  DirectoryCounts,
  FolderList,
  FolderListQuery,
  LawyerList,
  LawyerListQuery,
  LawyerLookupReply,
  LawyerLookupRequest,
  LawyerSaveReply,
  LawyerSaveRequest,
  LicenseByEmailQuery,
  LicenseEmailResent,
  LicenseFindRequest,
  LicenseLookupReply,
  LicenseRoleChange,
  LicenseRoleView,
  ProfileReply,
  WorkflowList,
  WorkflowListQuery,
} from '../schemas/directory';
import { Folder, FolderInput } from '../schemas/folder';
import { Lawyer, LawyerSecrets, RevealedLicenseKey } from '../schemas/lawyer';
import { Workflow, WorkflowCreateInput, WorkflowUpdateInput } from '../schemas/workflow';
import type { RouteDefinition } from './route-definition';

/**
 * Lawyers, profile, workflows, folders, licences and the audit trail (spec §7 data-table calls).
 *
 * Access is the first gate; ownership is the second, in the domain services: a lawyer or notary
 * reads only his own workflows, profile and licence, and toggles scheduling only on his own
 * workflows (another lawyer's workflow answers 404, so its existence is not revealed).
 * Licence keys travel only in bodies, never in a URL.
 */
export const DIRECTORY_ROUTES = {
  listLawyers: {
    method: 'GET',
    path: '/api/lawyers',
    handler: 'lawyers',
    access: 'admin',
    query: LawyerListQuery,
    response: LawyerList,
  },
  getLawyer: {
    method: 'GET',
    path: '/api/lawyers/{id}',
    handler: 'lawyers',
    access: 'admin',
    response: Lawyer,
  },
  saveLawyer: {
    method: 'PUT',
    path: '/api/lawyers',
    handler: 'lawyers',
    access: 'admin',
    // 'Nouvel avocat' sends one: a retry of a create whose reply was lost gets it, not a 409.
    idempotent: { status: 201 },
    request: AdminLawyerSaveRequest,
    response: LawyerSaveReply,
  },
  deleteLawyer: {
    method: 'DELETE',
    path: '/api/lawyers/{id}',
    handler: 'lawyers',
    access: 'admin',
    // Asks for the second factor again when its last check is older than 15 minutes.
    sensitive: true,
    response: SuccessReply,
  },
  revealLawyerSecrets: {
    method: 'POST',
    path: '/api/lawyers/{id}/reveal-secrets',
    handler: 'lawyers',
    access: 'admin',
    // Asks for the second factor again when its last check is older than 15 minutes.
    sensitive: true,
    response: LawyerSecrets,
  },
  /** The type of the lawyer's licence, for the details dialog (lists show keys masked). */
  getLicenseRole: {
    method: 'GET',
    path: '/api/lawyers/{id}/license-type',
    handler: 'lawyers',
    access: 'admin',
    response: LicenseRoleView,
  },
  /** Makes the lawyer's licence a notary's one (or back); audited with the change, in one transaction. */
  setLicenseRole: {
    method: 'PUT',
    path: '/api/lawyers/{id}/license-type',
    handler: 'lawyers',
    access: 'admin',
    request: LicenseRoleChange,
    response: LicenseRoleChange,
  },
  revealLawyerLicenseKey: {
    method: 'POST',
    path: '/api/lawyers/{id}/reveal-license-key',
    handler: 'lawyers',
    access: 'admin',
    // Lists show keys masked; one is revealed on demand, after a recent second-factor check.
    sensitive: true,
    response: RevealedLicenseKey,
  },
  /**
   * Sends the lawyer's licence key again to the licence's address, at most once every few minutes;
   * clears 'E-mail non délivré' once sent; audited. The key never travels in the reply.
   */
  resendLicenseEmail: {
    method: 'POST',
    path: '/api/lawyers/{id}/license-email',
    handler: 'lawyers',
    access: 'admin',
    response: LicenseEmailResent,
  },
  lookupLawyer: {
    method: 'POST',
    path: '/api/lawyers/lookup',
    handler: 'lawyers',
    access: 'signed-in',
    request: LawyerLookupRequest,
    response: LawyerLookupReply,
  },
  getProfile: {
    method: 'GET',
    path: '/api/me',
    handler: 'me',
    access: 'member',
    response: ProfileReply,
  },
  saveProfile: {
    method: 'PUT',
    path: '/api/me',
    handler: 'me',
    access: 'member',
    request: LawyerSaveRequest,
    response: ProfileReply,
  },
  listWorkflows: {
    method: 'GET',
    path: '/api/workflows',
    handler: 'workflows',
    access: 'signed-in',
    query: WorkflowListQuery,
    response: WorkflowList,
  },
  /** Total, Actives, Planifiées and per type: everyone's for an admin (and lawyers, folders), his own for a member. */
  directoryCounts: {
    method: 'GET',
    path: '/api/counts',
    handler: 'workflows',
    access: 'signed-in',
    response: DirectoryCounts,
  },
  getWorkflow: {
    method: 'GET',
    path: '/api/workflows/{id}',
    handler: 'workflows',
    access: 'signed-in',
    response: Workflow,
  },
  createWorkflow: {
    method: 'POST',
    path: '/api/workflows',
    handler: 'workflows',
    access: 'admin',
    idempotent: { status: 201 },
    request: WorkflowCreateInput,
    response: Workflow,
  },
  updateWorkflow: {
    method: 'PUT',
    path: '/api/workflows/{id}',
    handler: 'workflows',
    access: 'admin',
    request: WorkflowUpdateInput,
    response: Workflow,
  },
  deleteWorkflow: {
    method: 'DELETE',
    path: '/api/workflows/{id}',
    handler: 'workflows',
    access: 'admin',
    response: SuccessReply,
  },
  toggleWorkflowActive: {
    method: 'POST',
    path: '/api/workflows/{id}/toggle-active',
    handler: 'workflows',
    access: 'admin',
    response: Workflow,
  },
  toggleWorkflowScheduling: {
    method: 'POST',
    path: '/api/workflows/{id}/toggle-scheduling',
    handler: 'workflows',
    access: 'signed-in',
    response: Workflow,
  },
  listFolders: {
    method: 'GET',
    path: '/api/folders',
    handler: 'folders',
    access: 'admin',
    query: FolderListQuery,
    response: FolderList,
  },
  createFolder: {
    method: 'POST',
    path: '/api/folders',
    handler: 'folders',
    access: 'admin',
    idempotent: { status: 201 },
    request: FolderInput,
    response: Folder,
  },
  updateFolder: {
    method: 'PUT',
    path: '/api/folders/{id}',
    handler: 'folders',
    access: 'admin',
    request: FolderInput,
    response: Folder,
  },
  deleteFolder: {
    method: 'DELETE',
    path: '/api/folders/{id}',
    handler: 'folders',
    access: 'admin',
    response: SuccessReply,
  },
  findLicenseByEmail: {
    method: 'GET',
    path: '/api/licenses',
    handler: 'licenses',
    access: 'signed-in',
    query: LicenseByEmailQuery,
    response: LicenseLookupReply,
  },
  findLicenseByKey: {
    method: 'POST',
    path: '/api/licenses/find',
    handler: 'licenses',
    access: 'signed-in',
    request: LicenseFindRequest,
    response: LicenseLookupReply,
  },
  listAudit: {
    method: 'GET',
    path: '/api/audit',
    handler: 'audit',
    access: 'admin',
    query: AuditQuery,
    response: AuditPage,
  },
} as const satisfies Record<string, RouteDefinition>;
