import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Skeleton from '@cloudscape-design/components/skeleton';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tabs from '@cloudscape-design/components/tabs';

import { MESSAGES, WORKFLOW_CATEGORIES, type Workflow, type WorkflowCategory } from '../../../../shared';
import { memberWorkflowCard } from '../../components/workflows/member-workflow-card';
import { MemberWorkflowCards } from '../../components/workflows/member-workflow-cards';
import { useMemberWorkflows } from '../../components/workflows/use-member-workflows';
import { usePageTitle } from '../../layout/use-page-title';
import { NOTARY_WORKFLOWS_TEXT as TEXT } from './strings';

const inCategory = (workflows: readonly Workflow[], category: WorkflowCategory) =>
  category === 'all' ? [...workflows] : workflows.filter((workflow) => workflow.type === category);

/**
 * 'Mes Automatisations' of a notary (/notary/workflows, spec §2): category tabs with counts, the
 * cards (scheduling switch and 'Exécuter'), the running banner, the warning of spec §5.
 */
export function NotaryWorkflowsPage() {
  usePageTitle(TEXT.title);
  const { workflows, busyIds, toggleScheduling } = useMemberWorkflows();
  const all = workflows.data ?? [];
  const running = all.filter((workflow) => workflow.active && workflow.cronSettings.enabled).length;
  const card = memberWorkflowCard({
    onToggleScheduling: (workflow) => void toggleScheduling(workflow),
    busyIds,
  });

  const content = () => {
    if (workflows.loading && !workflows.data) {
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
    if (workflows.error) return <Alert type="error">{MESSAGES.workflow.listLoadFailed}</Alert>;
    if (all.length === 0) {
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
      <Tabs
        tabs={WORKFLOW_CATEGORIES.map((category) => {
          const items = inCategory(all, category);
          return {
            id: category,
            label: TEXT.tab(TEXT.tabs[category], items.length),
            content: (
              <MemberWorkflowCards
                items={items}
                cardDefinition={card}
                empty={<Box textAlign="center">{MESSAGES.workflow.noneForAccount}</Box>}
              />
            ),
          };
        })}
      />
    );
  };

  return (
    <ContentLayout
      header={
        <Header variant="h1" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
    >
      <SpaceBetween size="l">
        <Alert type="warning">{TEXT.warning}</Alert>
        {running > 0 && <Alert type="info">{TEXT.running(running)}</Alert>}
        {content()}
      </SpaceBetween>
    </ContentLayout>
  );
}
