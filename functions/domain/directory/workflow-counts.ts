import { WORKFLOW_TYPES, type WorkflowType } from '../../../shared/constants';

/**
 * The counters of the directory (Total, Actives, Planifiées, and per type): everyone's, each
 * lawyer's and each folder's. A change to a workflow changes them by the difference between its
 * contribution before and after, written in the same transaction as the change (the data layer's
 * part): they are never recounted from the list. Pure.
 */

/** What a workflow's contribution to the counters depends on. */
export interface CountedWorkflow {
  readonly id: string;
  readonly lawyerEmail: string;
  readonly folderId: string | null;
  readonly active: boolean;
  readonly cronEnabled: boolean;
  readonly type: WorkflowType;
}

/** Which counters: everyone's (kept apart by workflow, see the data layer), a lawyer's, a folder's. */
export type CounterScope =
  | { readonly kind: 'all'; readonly workflowId: string }
  | { readonly kind: 'owner'; readonly email: string }
  | { readonly kind: 'folder'; readonly folderId: string };

/**
 * A counter: the three of every scope; and of everyone's and a lawyer's, those running (active and
 * scheduled: a member's 'en cours d'exécution') and the count per type.
 */
export type CounterField = 'total' | 'active' | 'scheduled' | 'running' | WorkflowType;

/** What one change adds to the counters of one scope (a negative number takes away). */
export interface CounterDelta {
  readonly scope: CounterScope;
  readonly add: Readonly<Partial<Record<CounterField, number>>>;
}

/** Total, Actives, Planifiées, and the count of each type. */
export interface WorkflowCounts {
  readonly total: number;
  readonly active: number;
  readonly scheduled: number;
  readonly running: number;
  readonly byType: Readonly<Record<WorkflowType, number>>;
}

export const NO_WORKFLOWS: WorkflowCounts = {
  total: 0,
  active: 0,
  scheduled: 0,
  running: 0,
  byType: Object.fromEntries(WORKFLOW_TYPES.map((type) => [type, 0])) as Record<WorkflowType, number>,
};

const scopeId = (scope: CounterScope) =>
  scope.kind === 'all'
    ? `all`
    : scope.kind === 'owner'
      ? `owner\n${scope.email}`
      : `folder\n${scope.folderId}`;

function contributions(workflow: CountedWorkflow | null, sign: 1 | -1): CounterDelta[] {
  if (!workflow) return [];
  const flags = {
    total: sign,
    active: workflow.active ? sign : 0,
    scheduled: workflow.cronEnabled ? sign : 0,
  };
  const withType = {
    ...flags,
    running: workflow.active && workflow.cronEnabled ? sign : 0,
    [workflow.type]: sign,
  };
  return [
    { scope: { kind: 'all', workflowId: workflow.id }, add: withType },
    { scope: { kind: 'owner', email: workflow.lawyerEmail }, add: withType },
    ...(workflow.folderId
      ? [{ scope: { kind: 'folder', folderId: workflow.folderId } as const, add: flags }]
      : []),
  ];
}

/**
 * What a change from `before` to `after` (null: not there) adds to each scope's counters: one delta
 * per scope whose counters move, without the counters that stay (a rename moves none).
 */
export function counterDeltas(before: CountedWorkflow | null, after: CountedWorkflow | null): CounterDelta[] {
  const merged = new Map<string, { scope: CounterScope; add: Partial<Record<CounterField, number>> }>();
  for (const delta of [...contributions(before, -1), ...contributions(after, 1)]) {
    const id = scopeId(delta.scope);
    const current = merged.get(id) ?? { scope: delta.scope, add: {} };
    for (const [field, value] of Object.entries(delta.add) as [CounterField, number][]) {
      current.add[field] = (current.add[field] ?? 0) + value;
    }
    merged.set(id, current);
  }
  return [...merged.values()]
    .map(({ scope, add }) => ({
      scope,
      add: Object.fromEntries(Object.entries(add).filter(([, value]) => value !== 0)),
    }))
    .filter((delta) => Object.keys(delta.add).length > 0);
}

/** The counts of workflows, recounted one by one: what the counters must always equal. */
export function recount(workflows: readonly CountedWorkflow[]): WorkflowCounts {
  const byType = { ...NO_WORKFLOWS.byType };
  for (const workflow of workflows) byType[workflow.type] += 1;
  return {
    total: workflows.length,
    active: workflows.filter((workflow) => workflow.active).length,
    scheduled: workflows.filter((workflow) => workflow.cronEnabled).length,
    running: workflows.filter((workflow) => workflow.active && workflow.cronEnabled).length,
    byType,
  };
}
