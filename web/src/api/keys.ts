import type { WorkflowHealthFilter, WorkflowType } from '../../../shared';

/**
 * The query keys of the server state, by what they read: invalidating a prefix ('workflows')
 * reads again every list of it the screens show.
 */
export const KEYS = {
  workflows: (query: WorkflowPageQuery) => ['workflows', query] as const,
  allWorkflows: ['workflows'] as const,
  counts: ['counts'] as const,
  folders: (q: string) => ['folders', q] as const,
  allFolders: ['folders'] as const,
  lawyers: (q: string, limit: number) => ['lawyers', q, limit] as const,
  allLawyers: ['lawyers'] as const,
  licenseType: (lawyerId: string) => ['license-type', lawyerId] as const,
  health: (ids: readonly string[]) => ['health', ...ids] as const,
  allHealth: ['health'] as const,
  workflowHealth: (id: string) => ['workflow-health', id] as const,
  executions: (id: string) => ['executions', id] as const,
  audit: ['audit'] as const,
  healthDashboard: ['health-dashboard'] as const,
  healthSettings: ['health-settings'] as const,
  schedulerStatus: ['scheduler-status'] as const,
  profile: ['profile'] as const,
  subscription: ['subscription'] as const,
  secondFactor: ['second-factor'] as const,
  rememberedBrowsers: ['remembered-browsers'] as const,
  /** A firm's latest data export: the member's own (no id) or the lawyer's the admin named. */
  dataExport: (lawyerId?: string) => ['data-export', lawyerId ?? 'own'] as const,
};

/** Cards on one page of /admin/workflows: the first page index.html asks for is this page. */
export const ADMIN_WORKFLOWS_PAGE_SIZE = 12;

/** What a page of automations is asked for: the page size, the search, the folder, state and type. */
export interface WorkflowPageQuery {
  readonly limit?: number;
  readonly q?: string;
  readonly folderId?: string;
  /** An admin's: one lawyer's automations. */
  readonly lawyerEmail?: string;
  readonly active?: boolean;
  readonly scheduled?: boolean;
  /** An admin's: paused by the automatic pause, or its last run failed. */
  readonly health?: WorkflowHealthFilter;
  readonly type?: WorkflowType;
}
