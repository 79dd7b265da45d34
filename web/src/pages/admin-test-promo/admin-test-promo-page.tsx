import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** Test promo code generator (/admin/test-promo). */
export function AdminTestPromoPage() {
  const title = STRINGS.pages.adminTestPromo;
  usePageTitle(title);
  return <ContentLayout header={<Header variant="h1">{title}</Header>} />;
}
