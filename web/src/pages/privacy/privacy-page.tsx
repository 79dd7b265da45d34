import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';

import { APP_INFO } from '../../../../shared';
import { DocumentSections } from '../../components/document-sections';
import { runtimeConfig } from '../../config/runtime-config';
import { PageHeader } from '../../layout/page-header';
import { useFollow } from '../../layout/use-follow';
import { STRINGS } from '../../strings';
import { privacySections } from './privacy-content';

/** /privacy and its aliases /admin/privacy, /lawyer/privacy, /notary/privacy (spec §2). */
export function PrivacyPage() {
  const follow = useFollow();
  const { hostingRegion, legal: company } = runtimeConfig();

  return (
    <ContentLayout
      header={
        <SpaceBetween size="xs">
          <Button variant="link" iconName="arrow-left" href="/discover" onFollow={follow}>
            {STRINGS.privacy.back}
          </Button>
          <PageHeader
            title={STRINGS.privacy.title}
            description={STRINGS.privacy.lastUpdated(APP_INFO.privacyPolicyDate)}
          />
        </SpaceBetween>
      }
    >
      <SpaceBetween size="l">
        <DocumentSections sections={privacySections(hostingRegion, company)} />
        <Container header={<Header variant="h2">{STRINGS.privacy.companyTitle}</Header>}>
          <ColumnLayout columns={2} variant="text-grid">
            <div>
              <Box variant="awsui-key-label">{STRINGS.privacy.registrationNumber}</Box>
              <div>
                {company.name}, {company.legalForm}, {company.registration}
              </div>
            </div>
            <div>
              <Box variant="awsui-key-label">{STRINGS.privacy.postalAddress}</Box>
              <div>{company.postalAddress}</div>
            </div>
            <div>
              <Box variant="awsui-key-label">{STRINGS.privacy.contactEmail}</Box>
              <Link href={`mailto:${company.contactEmail}`}>{company.contactEmail}</Link>
            </div>
            <div>
              <Box variant="awsui-key-label">{STRINGS.privacy.publicationDirector}</Box>
              <div>{company.publicationDirector}</div>
            </div>
          </ColumnLayout>
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
