import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';

import { DocumentSections } from '../../components/document-sections';
import { PROVIDER } from '../../config/provider';
import { PageHeader } from '../../layout/page-header';
import { useFollow } from '../../layout/use-follow';
import { STRINGS } from '../../strings';
import { DISCOVER_INTRODUCTION, DISCOVER_SECTIONS, DISCOVER_TITLE } from './discover-content';

/** /discover: the public presentation of the product (spec §2). */
export function DiscoverPage() {
  const follow = useFollow();
  const actions = (
    <SpaceBetween size="xs" direction="horizontal">
      <Button
        href={PROVIDER.videoDemosUrl}
        target="_blank"
        iconName="external"
        iconAlign="right"
        ariaLabel={`${STRINGS.discover.watchDemos} ${STRINGS.login.externalLinkLabel}`}
      >
        {STRINGS.discover.watchDemos}
      </Button>
      <Button variant="primary" href="/login" onFollow={follow}>
        {STRINGS.discover.getStarted}
      </Button>
    </SpaceBetween>
  );

  return (
    <ContentLayout
      header={<PageHeader title={DISCOVER_TITLE} description={DISCOVER_INTRODUCTION} actions={actions} />}
    >
      <DocumentSections
        sections={DISCOVER_SECTIONS}
        extra={{
          sectionId: 'confidentiality',
          content: (
            <Link href="/privacy" onFollow={follow}>
              {STRINGS.discover.privacyLink}
            </Link>
          ),
        }}
      />
    </ContentLayout>
  );
}
