import type { BadgeProps } from '@cloudscape-design/components/badge';

import {
  PLANNING_CARD_DEFAULT_INTERVAL_MINUTES,
  WORKFLOW_TYPE_LABELS,
  type Workflow,
  type WorkflowType,
} from '../../../../shared';
import { STRINGS } from '../../strings';

/** Badge colour of each workflow type, the same on every card. */
export const WORKFLOW_TYPE_BADGE_COLORS: Record<WorkflowType, BadgeProps['color']> = {
  client_management: 'blue',
  document_classification: 'severity-neutral',
  client_reminder: 'severity-low',
};

/** The French label of a workflow type ('Gestion Client', ...). */
export function workflowTypeLabel(type: WorkflowType): string {
  return WORKFLOW_TYPE_LABELS[type];
}

/** 'Planifié (n min)' or 'Non planifié' (spec §4). */
export function schedulingLabel(workflow: Workflow): string {
  return workflow.cronSettings.enabled && workflow.cronSettings.interval
    ? STRINGS.workflows.scheduled(workflow.cronSettings.interval)
    : STRINGS.workflows.notScheduled;
}

/** Interval shown on planning cards: the workflow's, or 60 minutes when it has none (spec §9). */
export function planningInterval(workflow: Workflow): number {
  return workflow.cronSettings.interval ?? PLANNING_CARD_DEFAULT_INTERVAL_MINUTES;
}

/** Workflows newest first, the order of every list of the spec (§7). */
export function newestFirst<T extends { readonly createdAt: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
