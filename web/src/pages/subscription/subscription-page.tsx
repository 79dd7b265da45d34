import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';

import { useAuth } from '../../auth/auth-context';
import { DataExportPanel } from '../../components/scheduling/data-export-panel';
import { SecuritySettings } from '../../components/second-factor/security-settings';
import { PageHeader } from '../../layout/page-header';
import { useFollow } from '../../layout/use-follow';
import { SUBSCRIPTION_TEXT as TEXT } from './strings';
import { SubscriptionManagement } from './subscription-management';
import { STATUS_READINGS, type StatusReadingName } from './subscription-status';

/**
 * 'Gestion de l'abonnement' (spec §2): /lawyer/settings inside the signed-in layout reads the status
 * the settings way, the public /subscription the subscription page's way (spec §4). /subscription is
 * public, but a subscription belongs to a licence: without a session it asks the visitor to sign
 * in, and an administrator licence, which has no subscription, is told so.
 */
export function SubscriptionPage({ reading = 'subscription' }: { readonly reading?: StatusReadingName }) {
  const { session } = useAuth();
  const follow = useFollow();

  let body: ReactNode;
  if (!session) {
    body = (
      <Alert
        type="info"
        header={TEXT.signInRequired.header}
        action={
          <Button href="/login" onFollow={follow}>
            {TEXT.signInRequired.action}
          </Button>
        }
      >
        {TEXT.signInRequired.text}
      </Alert>
    );
  } else if (session.role === 'admin') {
    body = (
      <Alert type="info" header={TEXT.membersOnly.header}>
        {TEXT.membersOnly.text}
      </Alert>
    );
  } else {
    const management = (
      <SubscriptionManagement reading={STATUS_READINGS[reading]} sessionLicenseKey={session.licenseKey} />
    );
    // /lawyer/settings is also where the licence's second factor is set up.
    body =
      reading === 'settings' ? (
        <SpaceBetween size="l">
          {management}
          <SecuritySettings />
          <DataExportPanel />
        </SpaceBetween>
      ) : (
        management
      );
  }

  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      {body}
    </ContentLayout>
  );
}
