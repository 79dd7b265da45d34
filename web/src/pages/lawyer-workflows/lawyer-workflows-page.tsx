import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** The lawyer's automations (/lawyer/workflows). */
export function LawyerWorkflowsPage() {
  const title = STRINGS.pages.lawyerWorkflows;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
