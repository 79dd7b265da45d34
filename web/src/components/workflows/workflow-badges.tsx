import Badge from '@cloudscape-design/components/badge';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

import type { Workflow } from '../../../../shared';
import { schedulingLabel, WORKFLOW_TYPE_BADGE_COLORS, workflowTypeLabel } from './workflow-display';
import { useWorkflowHealth, withPauseSeen } from './workflow-health';

/**
 * The badges every workflow card starts with, the admin's and the lawyer's alike: its type,
 * 'Planifié (n min)' / 'Non planifié' as its health shows it (a copy read before an automatic pause
 * says 'Non planifié'), then its category and tags, which the searches match.
 */
export function WorkflowBadges({
  workflow,
  children,
}: {
  readonly workflow: Workflow;
  readonly children?: ReactNode;
}) {
  const shown = withPauseSeen(workflow, useWorkflowHealth(workflow.id));
  return (
    <SpaceBetween direction="horizontal" size="xs">
      <Badge color={WORKFLOW_TYPE_BADGE_COLORS[workflow.type]}>{workflowTypeLabel(workflow.type)}</Badge>
      <Badge color={shown.cronSettings.enabled ? 'green' : 'grey'}>{schedulingLabel(shown)}</Badge>
      {workflow.category && <Badge>{workflow.category}</Badge>}
      {workflow.tags?.map((tag) => (
        <Badge key={tag} color="grey">
          {tag}
        </Badge>
      ))}
      {children}
    </SpaceBetween>
  );
}
