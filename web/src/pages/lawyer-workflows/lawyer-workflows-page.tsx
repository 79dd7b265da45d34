import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useNavigate } from 'react-router';

import { MESSAGES, type Workflow } from '../../../../shared';
import { memberWorkflowCard } from '../../components/workflows/member-workflow-card';
import { MemberWorkflowCards } from '../../components/workflows/member-workflow-cards';
import { useMemberWorkflows } from '../../components/workflows/use-member-workflows';
import { usePageTitle } from '../../layout/use-page-title';
import { LAWYER_WORKFLOWS_TEXT as TEXT } from './strings';

/**
 * The lawyer's automations (/lawyer/workflows, spec §2): 'Automatisations actives (n)' and
 * 'En attente d'activation (n)'; each card offers Planification, the scheduling switch, Exécuter.
 */
export function LawyerWorkflowsPage() {
  usePageTitle(TEXT.title);
  const navigate = useNavigate();
  const { workflows, busyIds, toggleScheduling } = useMemberWorkflows();
  const all = workflows.data ?? [];
  const active = all.filter((workflow) => workflow.active);
  const pending = all.filter((workflow) => !workflow.active);
  const card = memberWorkflowCard({
    onToggleScheduling: (workflow) => void toggleScheduling(workflow),
    busyIds,
    extraActions: () => (
      <Button iconName="calendar" onClick={() => navigate('/lawyer/cron')}>
        {TEXT.planning}
      </Button>
    ),
  });
  const loading = workflows.loading && !workflows.data;
  const section = (title: string, items: Workflow[], empty: string) => (
    <MemberWorkflowCards
      items={items}
      loading={loading}
      loadingText={TEXT.loading}
      cardDefinition={card}
      header={<Header variant="h2">{title}</Header>}
      empty={
        <Box textAlign="center" color="inherit">
          {empty}
        </Box>
      }
    />
  );

  return (
    <ContentLayout
      header={
        <Header variant="h1" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
    >
      <SpaceBetween size="l">
        {workflows.error && <Alert type="error">{MESSAGES.workflow.listLoadFailed}</Alert>}
        {!loading && !workflows.error && all.length === 0 && (
          <Alert type="info">{MESSAGES.workflow.noneForAccount}</Alert>
        )}
        <Alert type="info">{TEXT.infoScheduling}</Alert>
        {section(TEXT.active(active.length), active, TEXT.noActive)}
        {pending.length > 0 && <Alert type="warning">{TEXT.infoPending}</Alert>}
        {section(TEXT.pending(pending.length), pending, TEXT.noPending)}
      </SpaceBetween>
    </ContentLayout>
  );
}
