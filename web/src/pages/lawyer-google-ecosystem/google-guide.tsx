import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';

import { type DocumentSection, DocumentSections } from '../../components/document-sections';
import { usePageTitle } from '../../layout/use-page-title';

/** A Google ecosystem guide page: the drive structure, the sheets, the calendar, the rules. */
export function GoogleGuide({ sections }: { readonly sections: readonly DocumentSection[] }) {
  const title = 'Écosystème Google';
  usePageTitle(title);
  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Ce que l'assistant crée dans votre compte Google, et comment le préparer et le gérer."
        >
          {title}
        </Header>
      }
    >
      <DocumentSections sections={sections} />
    </ContentLayout>
  );
}
