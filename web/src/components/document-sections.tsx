import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

/** One block of long-form copy: a paragraph or a bulleted list. */
export type DocumentBlock = { readonly paragraph: string } | { readonly list: readonly string[] };

/** One titled section of a long-form page (discover, privacy). */
export interface DocumentSection {
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly DocumentBlock[];
}

function renderBlock(block: DocumentBlock, index: number): ReactNode {
  if ('paragraph' in block) {
    return (
      <Box key={index} variant="p">
        {block.paragraph}
      </Box>
    );
  }
  return (
    <ul key={index}>
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

/** Sections of long-form copy, each a container titled with an h2. */
export function DocumentSections({
  sections,
  extra,
}: {
  readonly sections: readonly DocumentSection[];
  /** Content appended to the section of this id. */
  readonly extra?: { readonly sectionId: string; readonly content: ReactNode };
}) {
  return (
    <SpaceBetween size="l">
      {sections.map((section) => (
        <Container key={section.id} header={<Header variant="h2">{section.title}</Header>}>
          <SpaceBetween size="xs">
            {section.blocks.map(renderBlock)}
            {extra?.sectionId === section.id ? extra.content : null}
          </SpaceBetween>
        </Container>
      ))}
    </SpaceBetween>
  );
}
