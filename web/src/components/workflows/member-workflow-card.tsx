import Badge from '@cloudscape-design/components/badge';
import type { CardsProps } from '@cloudscape-design/components/cards';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';

import type { Workflow } from '../../../../shared';
import { STRINGS } from '../../strings';
import { ExecutionHistoryButton } from './execution-history';
import { HEALTH_TEXT } from './health-strings';
import { RunWorkflowButton } from './run-workflow-button';
import { WorkflowBadges } from './workflow-badges';
import { useWorkflowHealth, WorkflowHealthSection, withPauseSeen } from './workflow-health';

const TEXT = STRINGS.workflows;

export interface MemberCardOptions {
  /** The scheduling switch (the workflows path, spec §2); absent elsewhere: only 'Exécuter'. */
  readonly onToggleScheduling?: (workflow: Workflow) => void;
  /** Workflows whose switch is being saved. */
  readonly busyIds?: ReadonlySet<string>;
  /** Extra actions, such as the link to the planning page. */
  readonly extraActions?: (workflow: Workflow) => React.ReactNode;
  /** The badge of the google path ('Automatisations configurées et intégrées' when active). */
  readonly googlePath?: boolean;
}

/** The scheduling switch, as the workflow's health shows it (off once the automatic pause stopped it). */
function SchedulingToggle({
  workflow,
  busy,
  onToggle,
}: {
  readonly workflow: Workflow;
  readonly busy: boolean;
  readonly onToggle: (workflow: Workflow) => void;
}) {
  const shown = withPauseSeen(workflow, useWorkflowHealth(workflow.id));
  return (
    <Toggle checked={shown.cronSettings.enabled} disabled={busy} onChange={() => onToggle(shown)}>
      {TEXT.schedulingSwitch}
    </Toggle>
  );
}

/**
 * A lawyer's or notary's workflow card (spec §2, §4): name, description, type, scheduling, category
 * and tags (his search matches them) and, for a workflow the admin has not activated, 'En attente
 * d'activation par l'administrateur'.
 */
export function memberWorkflowCard(options: MemberCardOptions = {}): CardsProps.CardDefinition<Workflow> {
  return {
    header: (workflow) => workflow.name,
    sections: [
      { id: 'description', content: (workflow) => workflow.description },
      {
        id: 'badges',
        content: (workflow) => (
          <WorkflowBadges workflow={workflow}>
            {workflow.active ? (
              options.googlePath && <Badge color="green">{TEXT.integrated}</Badge>
            ) : (
              <Badge color="severity-medium">{TEXT.pendingActivation}</Badge>
            )}
          </WorkflowBadges>
        ),
      },
      {
        id: 'health',
        header: HEALTH_TEXT.section,
        content: (workflow) => <WorkflowHealthSection workflow={workflow} />,
      },
      {
        id: 'actions',
        content: (workflow) => (
          <SpaceBetween size="s">
            {options.onToggleScheduling && (
              <SchedulingToggle
                workflow={workflow}
                busy={options.busyIds?.has(workflow.id) ?? false}
                onToggle={options.onToggleScheduling}
              />
            )}
            <SpaceBetween direction="horizontal" size="xs">
              <RunWorkflowButton workflow={workflow} />
              <ExecutionHistoryButton workflow={workflow} />
              {options.extraActions?.(workflow)}
            </SpaceBetween>
          </SpaceBetween>
        ),
      },
    ],
  };
}
