import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Skeleton from '@cloudscape-design/components/skeleton';
import SpaceBetween from '@cloudscape-design/components/space-between';

import { MESSAGES, WORKFLOW_CATEGORIES, type WorkflowCategory } from '../../../../shared';
import { MemberSearch } from '../../components/workflows/member-search';
import { memberWorkflowCard } from '../../components/workflows/member-workflow-card';
import { MemberWorkflowCards } from '../../components/workflows/member-workflow-cards';
import { MeasuredTabs } from '../../layout/measured-tabs';
import { PageHeader } from '../../layout/page-header';
import { STRINGS } from '../../strings';
import { NOTARY_WORKFLOWS_TEXT as TEXT } from './strings';
import { useNotaryWorkflows } from './use-notary-workflows';

/**
 * 'Mes Automatisations' of a notary (/notary/workflows, spec §2): category tabs with counts, the
 * cards (scheduling switch and 'Exécuter'), the running banner, the warning of spec §5.
 */
export function NotaryWorkflowsPage() {
  const { tab, setTab, counts, countOf, search, pages, busyIds, toggleScheduling } = useNotaryWorkflows();
  const card = memberWorkflowCard({ onToggleScheduling: toggleScheduling, busyIds });

  const content = () => {
    if (!counts) {
      return (
        <Container>
          <SpaceBetween size="s">
            <Skeleton variant="text-heading-m" width="30%" />
            <Skeleton variant="text-body-m" width="80%" />
            <Skeleton variant="text-body-m" width="60%" />
          </SpaceBetween>
        </Container>
      );
    }
    if (pages.query.isError) return <Alert type="error">{MESSAGES.workflow.listLoadFailed}</Alert>;
    if (counts.total === 0) {
      return (
        <Container>
          <Box textAlign="center">
            {/* h2 under the page h1: the heading order stays unbroken (axe heading-order). */}
            <Box variant="h2" fontSize="heading-m">
              {TEXT.emptyTitle}
            </Box>
            <Box variant="p">{TEXT.emptyText}</Box>
          </Box>
        </Container>
      );
    }
    return (
      <SpaceBetween size="m">
        <MemberSearch search={search} lists={[pages]} />
        <MeasuredTabs
          activeTabId={tab}
          onChange={({ detail }) => setTab(detail.activeTabId as WorkflowCategory)}
          tabs={WORKFLOW_CATEGORIES.map((category) => ({
            id: category,
            label: TEXT.tab(TEXT.tabs[category], countOf(category) ?? 0),
            content:
              category === tab ? (
                <MemberWorkflowCards
                  pages={pages}
                  cardDefinition={card}
                  empty={
                    <Box textAlign="center">
                      {search.q === '' ? MESSAGES.workflow.noneForAccount : STRINGS.workflows.noMatch}
                    </Box>
                  }
                />
              ) : null,
          }))}
        />
      </SpaceBetween>
    );
  };

  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      <SpaceBetween size="l">
        <Alert type="warning">{TEXT.warning}</Alert>
        {(counts?.running ?? 0) > 0 && <Alert type="info">{TEXT.running(counts?.running ?? 0)}</Alert>}
        {content()}
      </SpaceBetween>
    </ContentLayout>
  );
}
