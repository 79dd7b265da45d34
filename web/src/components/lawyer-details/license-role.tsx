import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useQuery } from '@tanstack/react-query';

import { type LicenseType, MESSAGES } from '../../../../shared';
import { licenseTypeQuery, useSetLicenseRole } from '../../api/directory';
import { useNotifications } from '../../notifications/notifications-context';
import { DETAILS_TEXT as TEXT } from './strings';

type MemberRole = Extract<LicenseType, 'lawyer' | 'notary'>;

const ROLE_NAMES: Readonly<Record<MemberRole, string>> = { lawyer: 'avocat', notary: 'notaire' };

/**
 * The licence's type in the details dialog, and the admin's switch between a lawyer's licence and
 * a notary's one (written with its audit entry). Read from the licence itself when the dialog opens.
 */
export function LicenseRole({ lawyerId }: { readonly lawyerId: string }) {
  const notifications = useNotifications();
  const read = useQuery(licenseTypeQuery(lawyerId));
  const setRole = useSetLicenseRole(lawyerId);

  const change = async (next: MemberRole) => {
    try {
      const reply = await setRole.mutateAsync({ licenseType: next });
      notifications.success(MESSAGES.licenseRole.changed(ROLE_NAMES[reply.licenseType]));
    } catch (error) {
      notifications.error(error instanceof Error ? error.message : MESSAGES.licenseRole.failed);
    }
  };

  const role = read.data;
  if (read.isError) return <Alert type="error">{MESSAGES.licenseRole.failed}</Alert>;
  if (role === undefined || role === null)
    return <StatusIndicator type="loading">{TEXT.licenseRole.loading}</StatusIndicator>;
  if (role === 'admin') return <Box>{TEXT.licenseRole.admin}</Box>;
  const other: MemberRole = role === 'lawyer' ? 'notary' : 'lawyer';
  return (
    <SpaceBetween size="xs">
      <Box data-testid="license-role">{TEXT.licenseRole.current(ROLE_NAMES[role])}</Box>
      <Button loading={setRole.isPending} onClick={() => void change(other)}>
        {TEXT.licenseRole.switchTo(ROLE_NAMES[other])}
      </Button>
      <Box variant="small" color="text-body-secondary">
        {TEXT.licenseRole.hint}
      </Box>
    </SpaceBetween>
  );
}
