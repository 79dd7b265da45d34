import Header from '@cloudscape-design/components/header';
import type { ReactNode } from 'react';

import { usePageTitle } from './use-page-title';

/** The title of a page (its h1, and the browser tab's), its description and its actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  readonly title: string;
  readonly description?: ReactNode;
  readonly actions?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Header variant="h1" description={description} actions={actions}>
      {title}
    </Header>
  );
}
