import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';

import { MESSAGES } from '../../../../shared';
import { useResendLicenseEmail } from '../../api/directory';
import { formatDateTime } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { DETAILS_TEXT as TEXT } from './strings';

/**
 * 'E-mail non délivré' on the lawyer's details, and the admin's 'Renvoyer la clé par e-mail': the
 * server sends the key to the licence's address again and clears the mark once it is sent.
 */
export function LicenseEmailStatus({
  lawyerId,
  undeliveredAt,
}: {
  readonly lawyerId: string;
  readonly undeliveredAt: string;
}) {
  const notifications = useNotifications();
  const resend = useResendLicenseEmail();

  const send = async () => {
    try {
      const { sentTo } = await resend.mutateAsync(lawyerId);
      notifications.success(MESSAGES.licenseEmail.sent(sentTo));
    } catch (error) {
      notifications.error(
        error instanceof Error && error.message ? error.message : MESSAGES.licenseEmail.failed,
      );
    }
  };

  if (resend.data)
    return <StatusIndicator type="success">{TEXT.licenseEmailResent(resend.data.sentTo)}</StatusIndicator>;
  return (
    <SpaceBetween size="xs">
      <StatusIndicator type="warning">
        {TEXT.licenseEmailUndelivered(formatDateTime(undeliveredAt))}
      </StatusIndicator>
      <Button iconName="envelope" loading={resend.isPending} onClick={() => void send()}>
        {TEXT.resendLicenseEmail}
      </Button>
    </SpaceBetween>
  );
}
