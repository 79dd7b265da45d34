import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useNavigate } from 'react-router';

import { useAuth } from '../../auth/auth-context';
import { PageHeader } from '../../layout/page-header';
import { WELCOME_TITLE, type WelcomeContent } from './strings';

/** A member's welcome page: what the assistant does, then the two first steps as buttons. */
export function Welcome({ content }: { readonly content: WelcomeContent }) {
  const navigate = useNavigate();
  const { session } = useAuth();
  return (
    <ContentLayout
      header={
        <PageHeader
          title={WELCOME_TITLE}
          description={session?.name ? `${session.name} — ${content.tagline}` : content.tagline}
        />
      }
    >
      <SpaceBetween size="l">
        <Container header={<Header variant="h2">{content.whatTitle}</Header>}>
          <ul>
            {content.features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
        </Container>
        <Container header={<Header variant="h2">{content.stepsTitle}</Header>}>
          <ColumnLayout columns={2}>
            {content.steps.map((step) => (
              <SpaceBetween key={step.path} size="s">
                <Box variant="h3">{step.title}</Box>
                <Box variant="p">{step.text}</Box>
                <Button variant="primary" onClick={() => navigate(step.path)}>
                  {step.button}
                </Button>
              </SpaceBetween>
            ))}
          </ColumnLayout>
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
