import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Icon, { type IconProps } from '@cloudscape-design/components/icon';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { Navigate } from 'react-router';

import { useAuth } from '../../auth/auth-context';
import { homePathFor } from '../../auth/role-paths';
import { PageHeader } from '../../layout/page-header';
import { useFollow } from '../../layout/use-follow';
import { STRINGS } from '../../strings';
import styles from './landing-page.module.css';

const FEATURE_ICONS: readonly IconProps.Name[] = ['gen-ai', 'security', 'history'];

/** The landing page '/': a signed-in user goes straight to his role's home (spec §2). */
export function LandingPage() {
  const { session } = useAuth();
  const follow = useFollow();
  const text = STRINGS.landing;
  if (session) return <Navigate to={homePathFor(session.role)} replace />;

  return (
    <ContentLayout
      headerVariant="high-contrast"
      disableOverlap
      header={
        <Box padding={{ vertical: 'xl' }}>
          <SpaceBetween size="l">
            <PageHeader title={text.title} description={text.tagline} />
            <Box variant="p" fontSize="heading-s">
              {text.introduction}
            </Box>
            <Button variant="primary" href="/login" onFollow={follow}>
              {text.start}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="xl">
        <section aria-labelledby="landing-features">
          <SpaceBetween size="m">
            <Box variant="h2" id="landing-features">
              {text.featuresTitle}
            </Box>
            <div className={styles.features}>
              {text.features.map((feature, index) => (
                <Container
                  key={feature.title}
                  fitHeight
                  header={
                    <SpaceBetween size="xs" direction="horizontal" alignItems="center">
                      <Icon name={FEATURE_ICONS[index]} size="medium" variant="link" />
                      <Box variant="h3">{feature.title}</Box>
                    </SpaceBetween>
                  }
                >
                  <Box variant="p">{feature.text}</Box>
                </Container>
              ))}
            </div>
          </SpaceBetween>
        </section>
        <Container header={<Header variant="h2">{text.ctaTitle}</Header>}>
          <SpaceBetween size="m">
            <Box variant="p">{text.ctaText}</Box>
            <Button variant="primary" href="/login" onFollow={follow}>
              {text.ctaButton}
            </Button>
          </SpaceBetween>
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
