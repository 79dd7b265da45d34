import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** Scheduler settings and manual run (/admin/settings). */
export function AdminSettingsPage() {
  const title = STRINGS.pages.adminSettings;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
