import Box from '@cloudscape-design/components/box';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import type { CardsProps } from '@cloudscape-design/components/cards';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';

import type { Workflow, WorkflowOwner } from '../../../../shared';
import { ExecutionHistoryButton } from '../../components/workflows/execution-history';
import { HEALTH_TEXT } from '../../components/workflows/health-strings';
import { RunWorkflowButton } from '../../components/workflows/run-workflow-button';
import { WorkflowBadges } from '../../components/workflows/workflow-badges';
import {
  useWorkflowHealth,
  WorkflowHealthSection,
  withPauseSeen,
} from '../../components/workflows/workflow-health';
import { STRINGS } from '../../strings';
import { ADMIN_WORKFLOWS_TEXT } from './strings';

const TEXT = ADMIN_WORKFLOWS_TEXT.card;

/** What a card's admin actions do; the page owns the dialogs and the calls. */
export interface WorkflowCardActions {
  edit(workflow: Workflow): void;
  remove(workflow: Workflow): void;
  toggleActive(workflow: Workflow): void;
  toggleScheduling(workflow: Workflow): void;
}

function ownerName(workflow: Workflow, owners: readonly WorkflowOwner[]): string {
  const owner = owners.find((candidate) => candidate.email === workflow.lawyerEmail);
  return owner ? `${owner.firstName} ${owner.lastName} (${owner.email})` : workflow.lawyerEmail;
}

/** The card's menu: its switches say what they would do to the workflow as its health shows it. */
function WorkflowActions({
  workflow,
  actions,
}: {
  readonly workflow: Workflow;
  readonly actions: WorkflowCardActions;
}) {
  const shown = withPauseSeen(workflow, useWorkflowHealth(workflow.id));
  return (
    <ButtonDropdown
      ariaLabel={TEXT.actionsOf(workflow.name)}
      variant="normal"
      items={[
        { id: 'edit', text: TEXT.edit },
        { id: 'active', text: shown.active ? TEXT.deactivate : TEXT.activate },
        { id: 'scheduling', text: shown.cronSettings.enabled ? TEXT.unschedule : TEXT.schedule },
        { id: 'delete', text: TEXT.delete },
      ]}
      onItemClick={({ detail }) => {
        if (detail.id === 'edit') actions.edit(workflow);
        else if (detail.id === 'active') actions.toggleActive(workflow);
        else if (detail.id === 'scheduling') actions.toggleScheduling(workflow);
        else actions.remove(workflow);
      }}
    >
      {TEXT.actions}
    </ButtonDropdown>
  );
}

/**
 * The admin workflow card (spec §2): name, description, type, scheduling, active state, optional
 * tags and category; actions edit, delete, toggle active, toggle scheduling, Exécuter, history.
 * `compact` drops the description and owner, for the folder panel.
 */
export function adminWorkflowCard(
  owners: readonly WorkflowOwner[],
  actions: WorkflowCardActions,
  compact = false,
): CardsProps.CardDefinition<Workflow> {
  return {
    header: (workflow) => workflow.name,
    sections: [
      ...(compact ? [] : [{ id: 'description', content: (workflow: Workflow) => workflow.description }]),
      {
        id: 'badges',
        content: (workflow: Workflow) => <WorkflowBadges workflow={workflow} />,
      },
      {
        id: 'state',
        header: TEXT.state,
        content: (workflow: Workflow) =>
          workflow.active ? (
            <StatusIndicator type="success">{STRINGS.workflows.active}</StatusIndicator>
          ) : (
            <StatusIndicator type="stopped">{STRINGS.workflows.inactive}</StatusIndicator>
          ),
      },
      {
        id: 'health',
        header: HEALTH_TEXT.section,
        content: (workflow: Workflow) => <WorkflowHealthSection workflow={workflow} />,
      },
      ...(compact
        ? []
        : [
            {
              id: 'lawyer',
              header: TEXT.lawyer,
              content: (workflow: Workflow) => <Box variant="span">{ownerName(workflow, owners)}</Box>,
            },
          ]),
      {
        id: 'actions',
        content: (workflow: Workflow) => (
          <SpaceBetween direction="horizontal" size="xs">
            <RunWorkflowButton workflow={workflow} />
            <ExecutionHistoryButton workflow={workflow} />
            <WorkflowActions workflow={workflow} actions={actions} />
          </SpaceBetween>
        ),
      },
    ],
  };
}
