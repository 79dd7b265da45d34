import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useRef, useState } from 'react';

import { MESSAGES, type PromoCodeReply } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { createPromoCode } from '../../api/billing';
import { PageHeader } from '../../layout/page-header';
import { useNotifications } from '../../notifications/notifications-context';
import { CopyCodeButton } from './copy-code-button';
import { TEST_PROMO_TEXT as TEXT } from './strings';

/** A created code as the page shows it. */
type CreatedCode = Required<Pick<PromoCodeReply, 'promoCode'>> & Pick<PromoCodeReply, 'percentOff'>;

/**
 * 'Code promo test' (/admin/test-promo, spec §2): creates a 100 % promotion code (at most 10 uses),
 * shows it with a copy button, how to use it, and why it must not travel.
 */
export function AdminTestPromoPage() {
  const notifications = useNotifications();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedCode>();
  // One Idempotency-Key per code asked for: kept until a code is shown, so the click sent again
  // after an error or a lost reply gets the code already created rather than a second one.
  const submission = useRef<string | null>(null);

  const create = async () => {
    setCreating(true);
    submission.current ??= crypto.randomUUID();
    try {
      const reply = await createPromoCode(submission.current);
      if (reply.success && reply.promoCode) {
        submission.current = null;
        setCreated({ promoCode: reply.promoCode, percentOff: reply.percentOff });
        notifications.success(MESSAGES.promo.created);
      } else {
        notifications.error(reply.error || MESSAGES.promo.createFailed);
      }
    } catch (error) {
      if (!endedSession(error)) notifications.error(MESSAGES.promo.createFailed);
    } finally {
      setCreating(false);
    }
  };

  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      <SpaceBetween size="l">
        <Alert type="warning" header={TEXT.warnings.header}>
          <ul>
            {TEXT.warnings.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </Alert>
        <Container
          header={
            <Header
              variant="h2"
              actions={
                <Button variant="primary" loading={creating} onClick={() => void create()}>
                  {TEXT.generator.create}
                </Button>
              }
            >
              {TEXT.generator.title}
            </Header>
          }
        >
          {created ? (
            <SpaceBetween size="xs">
              <Box variant="awsui-key-label">{TEXT.generator.code}</Box>
              <SpaceBetween direction="horizontal" size="s" alignItems="center">
                <span data-testid="promo-code">
                  <Box variant="code" fontSize="heading-m">
                    {created.promoCode}
                  </Box>
                </span>
                <CopyCodeButton code={created.promoCode} />
              </SpaceBetween>
              {created.percentOff !== undefined && (
                <Box color="text-body-secondary">{TEXT.generator.percentOff(created.percentOff)}</Box>
              )}
            </SpaceBetween>
          ) : (
            <Box color="text-body-secondary">{TEXT.generator.none}</Box>
          )}
        </Container>
        <Container header={<Header variant="h2">{TEXT.steps.title}</Header>}>
          <ol>
            {TEXT.steps.items.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
