import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** Admin automations and folders (/admin/workflows, /admin/workflows-new). */
export function AdminWorkflowsPage() {
  const title = STRINGS.pages.adminWorkflows;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
