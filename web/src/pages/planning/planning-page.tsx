import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** Workflow planning, the same for lawyers and notaries (/lawyer/cron, /notary/cron). */
export function PlanningPage() {
  const title = STRINGS.pages.planning;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
