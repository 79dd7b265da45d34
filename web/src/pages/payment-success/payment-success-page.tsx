import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Icon from '@cloudscape-design/components/icon';
import SpaceBetween from '@cloudscape-design/components/space-between';

import { useFollow } from '../../layout/use-follow';
import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';

/** /payment-success: where the payment provider sends the buyer back (spec §2). */
export function PaymentSuccessPage() {
  const follow = useFollow();
  const text = STRINGS.paymentSuccess;
  usePageTitle(text.title);

  return (
    <Container>
      <Box textAlign="center" padding={{ vertical: 'l' }}>
        <SpaceBetween size="m">
          <Icon name="status-positive" size="large" variant="success" />
          <Box variant="h1">{text.title}</Box>
          <Box variant="p">{text.activated}</Box>
          <Box variant="p">{text.emailed}</Box>
          <Box variant="p" color="text-body-secondary">
            {text.keepSafe}
          </Box>
          <Button variant="primary" href="/login" onFollow={follow}>
            {text.signInNow}
          </Button>
        </SpaceBetween>
      </Box>
    </Container>
  );
}
