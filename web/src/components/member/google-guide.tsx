import ContentLayout from '@cloudscape-design/components/content-layout';
import { PageHeader } from '../../layout/page-header';
import { type DocumentSection, DocumentSections } from '../document-sections';

/** A Google ecosystem guide page: the drive structure, the sheets, the calendar, the rules. */
export function GoogleGuide({ sections }: { readonly sections: readonly DocumentSection[] }) {
  return (
    <ContentLayout
      header={
        <PageHeader
          title="Écosystème Google"
          description="Ce que l'assistant crée dans votre compte Google, et comment le préparer et le gérer."
        />
      }
    >
      <DocumentSections sections={sections} />
    </ContentLayout>
  );
}
