import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** Lawyer account configuration (/lawyer/account-config, /lawyer/google). */
export function LawyerAccountConfigPage() {
  const title = STRINGS.pages.accountConfig;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
