import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** Notary Google ecosystem guide (/notary/google-ecosystem). */
export function NotaryGoogleEcosystemPage() {
  const title = STRINGS.pages.googleEcosystem;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
