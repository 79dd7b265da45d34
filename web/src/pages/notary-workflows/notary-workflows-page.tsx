import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** The notary's automations by category (/notary/workflows). */
export function NotaryWorkflowsPage() {
  const title = STRINGS.pages.notaryWorkflows;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
