import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Toggle from '@cloudscape-design/components/toggle';
import { Suspense } from 'react';

import { GLOBAL_SCHEDULING, MESSAGES } from '../../../../shared';
import { LazyHealthDashboard } from '../../components/health-dashboard/lazy-health-dashboard';
import { ExecutionHistoryButton } from '../../components/workflows/execution-history';
import { HEALTH_TEXT } from '../../components/workflows/health-strings';
import { MemberWorkflowCards } from '../../components/workflows/member-workflow-cards';
import { RunWorkflowButton } from '../../components/workflows/run-workflow-button';
import {
  planningInterval,
  WORKFLOW_TYPE_BADGE_COLORS,
  workflowTypeLabel,
} from '../../components/workflows/workflow-display';
import { WorkflowHealthSection } from '../../components/workflows/workflow-health';
import { formatDateTime } from '../../format/dates';
import { PageHeader } from '../../layout/page-header';
import { STRINGS } from '../../strings';
import { PLANNING_TEXT as TEXT } from './strings';
import { usePlanning } from './use-planning';

/**
 * Workflow planning, the same for lawyers and notaries (/lawyer/cron, /notary/cron; spec §2): the
 * global scheduling settings (fixed, spec §3) and one card per workflow with its interval (60 when
 * none), last run and 'Exécuter'; above them, his automations' health dashboard.
 */
export function PlanningPage({ workflowsPath }: { readonly workflowsPath: string }) {
  const workflows = usePlanning();
  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      <SpaceBetween size="l">
        <Container header={<Header variant="h2">{TEXT.globalTitle}</Header>}>
          <SpaceBetween size="m">
            <Toggle checked={GLOBAL_SCHEDULING.enabled} disabled>
              {TEXT.globalSwitch} : {GLOBAL_SCHEDULING.enabled ? TEXT.globalOn : TEXT.globalOff}
            </Toggle>
            <KeyValuePairs
              columns={2}
              items={[
                { label: TEXT.globalInterval, value: TEXT.everyMinutes(GLOBAL_SCHEDULING.defaultInterval) },
                { label: TEXT.maxConcurrent, value: GLOBAL_SCHEDULING.maxConcurrentWorkflows },
              ]}
            />
          </SpaceBetween>
        </Container>
        <Suspense fallback={<StatusIndicator type="loading">{HEALTH_TEXT.unknown}</StatusIndicator>}>
          <LazyHealthDashboard workflowsPath={workflowsPath} />
        </Suspense>
        {workflows.query.isError && <Alert type="error">{MESSAGES.workflow.listLoadFailed}</Alert>}
        {/* A plain heading: as the Cards' own header it sat alone in an empty box. */}
        <Header variant="h2">{TEXT.workflowsTitle}</Header>
        <MemberWorkflowCards
          pages={workflows}
          loadingText={TEXT.loading}
          cardDefinition={{
            header: (workflow) => workflow.name,
            sections: [
              { id: 'description', content: (workflow) => workflow.description },
              {
                id: 'badges',
                content: (workflow) => (
                  <SpaceBetween direction="horizontal" size="xs">
                    <Badge color={workflow.active ? 'green' : 'grey'}>
                      {workflow.active ? STRINGS.workflows.active : STRINGS.workflows.inactive}
                    </Badge>
                    <Badge color={WORKFLOW_TYPE_BADGE_COLORS[workflow.type]}>
                      {workflowTypeLabel(workflow.type)}
                    </Badge>
                  </SpaceBetween>
                ),
              },
              {
                id: 'timing',
                content: (workflow) => (
                  <KeyValuePairs
                    columns={2}
                    items={[
                      {
                        label: TEXT.interval,
                        value: STRINGS.workflows.intervalMinutes(planningInterval(workflow)),
                      },
                      {
                        label: TEXT.lastRun,
                        value: workflow.cronSettings.lastRun
                          ? formatDateTime(workflow.cronSettings.lastRun)
                          : STRINGS.workflows.never,
                      },
                    ]}
                  />
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
                  <SpaceBetween direction="horizontal" size="xs">
                    <RunWorkflowButton workflow={workflow} />
                    <ExecutionHistoryButton workflow={workflow} />
                  </SpaceBetween>
                ),
              },
            ],
          }}
          empty={
            <Box textAlign="center" color="inherit">
              {MESSAGES.workflow.noneForAccount}
            </Box>
          }
        />
      </SpaceBetween>
    </ContentLayout>
  );
}
