import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useNavigate } from 'react-router';

import { MESSAGES } from '../../../../shared';
import { MemberSearch } from '../../components/workflows/member-search';
import { memberWorkflowCard } from '../../components/workflows/member-workflow-card';
import { MemberWorkflowCards } from '../../components/workflows/member-workflow-cards';
import { PageHeader } from '../../layout/page-header';
import { STRINGS } from '../../strings';
import { LAWYER_WORKFLOWS_TEXT as TEXT } from './strings';
import { useLawyerWorkflows } from './use-lawyer-workflows';

/**
 * The lawyer's automations (/lawyer/workflows, spec §2): 'Automatisations actives (n)' and
 * 'En attente d'activation (n)'; each card offers Planification, the scheduling switch, Exécuter.
 */
export function LawyerWorkflowsPage() {
  const navigate = useNavigate();
  const { counts, search, active, pending, busyIds, toggleScheduling } = useLawyerWorkflows();
  const card = memberWorkflowCard({
    onToggleScheduling: toggleScheduling,
    busyIds,
    extraActions: () => (
      <Button iconName="calendar" onClick={() => navigate('/lawyer/cron')}>
        {TEXT.planning}
      </Button>
    ),
  });
  const failed = active.query.isError || pending.query.isError;
  const section = (title: string, pages: typeof active, empty: string) => (
    <MemberWorkflowCards
      pages={pages}
      loadingText={TEXT.loading}
      cardDefinition={card}
      header={<Header variant="h2">{title}</Header>}
      empty={
        <Box textAlign="center" color="inherit">
          {search.q === '' ? empty : STRINGS.workflows.noMatch}
        </Box>
      }
    />
  );

  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      <SpaceBetween size="l">
        {failed && <Alert type="error">{MESSAGES.workflow.listLoadFailed}</Alert>}
        {counts?.total === 0 && <Alert type="info">{MESSAGES.workflow.noneForAccount}</Alert>}
        <Alert type="info">{TEXT.infoScheduling}</Alert>
        {(counts?.total ?? 0) > 0 && <MemberSearch search={search} lists={[active, pending]} />}
        {section(TEXT.active(counts?.active ?? 0), active, TEXT.noActive)}
        {(counts?.pending ?? 0) > 0 && <Alert type="warning">{TEXT.infoPending}</Alert>}
        {section(TEXT.pending(counts?.pending ?? 0), pending, TEXT.noPending)}
      </SpaceBetween>
    </ContentLayout>
  );
}
