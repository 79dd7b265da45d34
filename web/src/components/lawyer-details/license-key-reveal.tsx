import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import type { Lawyer } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { revealLawyerLicenseKey } from '../../api/directory';
import { useNotifications } from '../../notifications/notifications-context';
import { DETAILS_TEXT as TEXT } from './strings';

/**
 * A lawyer's licence key as lists show it, masked (`NOTARY-••••1234`), with 'Afficher' to reveal
 * it in clear: one key at a time, after the second factor if the last check is old (the API
 * client's step-up), each reveal on the audit trail.
 */
export function LicenseKeyReveal({ lawyer }: { readonly lawyer: Pick<Lawyer, 'id' | 'licenseKey'> }) {
  const notifications = useNotifications();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (lawyer.licenseKey === null) return <>{TEXT.noLicenseKey}</>;

  const reveal = async () => {
    setBusy(true);
    try {
      const reply = await revealLawyerLicenseKey(lawyer.id);
      setRevealed(reply.licenseKey ?? TEXT.noLicenseKey);
    } catch (error) {
      if (!endedSession(error))
        notifications.error(error instanceof Error ? error.message : TEXT.revealKeyFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SpaceBetween direction="horizontal" size="xs" alignItems="center">
      <Box variant="code">{revealed ?? lawyer.licenseKey}</Box>
      {revealed === null && (
        <Button
          variant="inline-link"
          ariaLabel={TEXT.revealKeyLabel}
          loading={busy}
          onClick={() => void reveal()}
        >
          {TEXT.revealKey}
        </Button>
      )}
    </SpaceBetween>
  );
}
