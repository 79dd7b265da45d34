import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import KeyValuePairs, { type KeyValuePairsProps } from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import type { Lawyer, LawyerSecrets } from '../../../../shared';
import { revealLawyerSecrets } from '../../api/directory';
import { formatDate, formatDateTime } from '../../format/dates';
import { DataExportPanel } from '../scheduling/data-export-panel';
import { LicenseEmailStatus } from './license-email-status';
import { LicenseKeyReveal } from './license-key-reveal';
import { LicenseRole } from './license-role';
import { DETAILS_TEXT as TEXT } from './strings';

/** Which page shows the dialog: its fields follow that page's list in spec §2. */
export type DetailsVariant = 'lawyer' | 'notary';

function secretItems(
  lawyer: Lawyer,
  secrets: LawyerSecrets | null,
  variant: DetailsVariant,
): KeyValuePairsProps.Item[] {
  const hidden = TEXT.hidden;
  const password = secrets
    ? (secrets.googlePassword ?? TEXT.notConfigured)
    : lawyer.hasGooglePassword
      ? hidden
      : TEXT.notConfigured;
  const items: KeyValuePairsProps.Item[] = [{ label: TEXT.googlePassword, value: password }];
  if (variant === 'notary') {
    const credentials = secrets?.googleCredentials;
    if (!lawyer.hasGoogleCredentials || (secrets && !credentials)) {
      items.push({ label: TEXT.googleCredentials, value: TEXT.noCredentials });
    } else {
      items.push(
        { label: TEXT.clientId, value: credentials ? credentials.clientId || '—' : hidden },
        { label: TEXT.clientSecret, value: credentials ? credentials.clientSecret || '—' : hidden },
        { label: TEXT.redirectUri, value: credentials ? credentials.redirectUri || '—' : hidden },
      );
    }
  }
  return items;
}

/**
 * The details dialog of /admin/lawyers and /admin/notaries. The Google password and OAuth
 * credentials are not in the list: the admin asks for them with 'Afficher les identifiants', which
 * fetches them once and is written to the audit trail (spec §6: shown in clear to admins).
 */
export function LawyerDetailsModal({
  lawyer,
  variant,
  onDismiss,
}: {
  readonly lawyer: Lawyer;
  readonly variant: DetailsVariant;
  readonly onDismiss: () => void;
}) {
  const [secrets, setSecrets] = useState<LawyerSecrets | null>(null);
  const [revealing, setRevealing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasSecrets = lawyer.hasGooglePassword || lawyer.hasGoogleCredentials;

  const reveal = async () => {
    setRevealing(true);
    setError(null);
    try {
      setSecrets(await revealLawyerSecrets(lawyer.id));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : TEXT.revealFailed);
    } finally {
      setRevealing(false);
    }
  };

  const identity: KeyValuePairsProps.Item[] =
    variant === 'lawyer'
      ? [
          { label: TEXT.firstName, value: lawyer.firstName },
          { label: TEXT.lastName, value: lawyer.lastName },
          { label: TEXT.googleEmail, value: lawyer.email },
          { label: TEXT.mainEmail, value: lawyer.mainEmail },
          { label: TEXT.phone, value: lawyer.phoneNumber ?? TEXT.notConfigured },
          { label: TEXT.officeName, value: lawyer.officeName ?? '—' },
        ]
      : [
          { label: TEXT.firstName, value: lawyer.firstName },
          { label: TEXT.lastName, value: lawyer.lastName },
          { label: TEXT.email, value: lawyer.email },
          { label: TEXT.phone, value: lawyer.phoneNumber ?? TEXT.notConfigured },
        ];
  const settings: KeyValuePairsProps.Item[] = [
    { label: TEXT.reminderFrequency, value: TEXT.days(lawyer.reminderFrequency) },
    { label: TEXT.licenseKey, value: <LicenseKeyReveal lawyer={lawyer} /> },
    ...(lawyer.licenseEmailUndeliveredAt
      ? [
          {
            label: TEXT.licenseEmail,
            value: (
              <LicenseEmailStatus lawyerId={lawyer.id} undeliveredAt={lawyer.licenseEmailUndeliveredAt} />
            ),
          },
        ]
      : []),
    {
      label: TEXT.emailSignature,
      // A signature is several lines (name, firm, address): shown as written.
      value: lawyer.emailSignature ? (
        <span style={{ whiteSpace: 'pre-line' }}>{lawyer.emailSignature}</span>
      ) : (
        TEXT.noSignature
      ),
    },
    ...(variant === 'lawyer'
      ? [{ label: TEXT.createdAt, value: formatDate(lawyer.createdAt) }]
      : [
          { label: TEXT.createdAt, value: formatDateTime(lawyer.createdAt) },
          { label: TEXT.updatedAt, value: formatDateTime(lawyer.updatedAt) },
        ]),
  ];

  return (
    <Modal
      visible
      size="large"
      header={TEXT.title(`${lawyer.firstName} ${lawyer.lastName}`)}
      onDismiss={onDismiss}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={onDismiss}>
            {TEXT.close}
          </Button>
        </Box>
      }
    >
      <SpaceBetween size="l">
        <KeyValuePairs columns={2} items={identity} />
        <KeyValuePairs columns={2} items={settings} />
        {lawyer.licenseKey && (
          <SpaceBetween size="s">
            <Box variant="h3">{TEXT.licenseRole.title}</Box>
            <LicenseRole lawyerId={lawyer.id} />
          </SpaceBetween>
        )}
        <SpaceBetween size="s">
          <Box variant="h3">{TEXT.secretsTitle}</Box>
          <KeyValuePairs columns={2} items={secretItems(lawyer, secrets, variant)} />
          {hasSecrets && !secrets && (
            <SpaceBetween size="xs">
              <Box variant="small">{TEXT.revealAudited}</Box>
              <Button iconName="unlocked" loading={revealing} onClick={() => void reveal()}>
                {TEXT.reveal}
              </Button>
            </SpaceBetween>
          )}
          {error && <Alert type="error">{error}</Alert>}
        </SpaceBetween>
        <DataExportPanel lawyer={{ id: lawyer.id, name: `${lawyer.firstName} ${lawyer.lastName}` }} />
      </SpaceBetween>
    </Modal>
  );
}
