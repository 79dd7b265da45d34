import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { APP_INFO } from '../../../../shared';

import { profileQuery } from '../../api/profile';
import { useAuth } from '../../auth/auth-context';
import { DataExportPanel } from '../../components/scheduling/data-export-panel';
import { SecuritySettings } from '../../components/second-factor/security-settings';
import { PROVIDER } from '../../config/provider';
import { formatDate } from '../../format/dates';
import { PageHeader } from '../../layout/page-header';

const TEXT = {
  title: 'Paramètres',
  license: 'Licence',
  licenseKey: 'Clé de licence',
  licenseType: 'Type de licence',
  licenseTypeValue: 'Avocat - Accès complet',
  personal: 'Informations personnelles',
  fullName: 'Nom complet',
  email: 'Email',
  createdAt: 'Date de création',
  noProfile: "Aucun profil trouvé : complétez vos informations dans l'onglet Configuration Google.",
  noProfileLink: 'Configuration Google',
  app: 'Application',
  version: 'Version',
  lastUpdate: 'Dernière mise à jour',
  support: 'Support',
} as const;

/** Notary settings (/notary/settings, spec §2): licence, personal information, application, support. */
export function NotarySettingsPage() {
  const { session } = useAuth();
  const navigate = useNavigate();
  const profile = useQuery(profileQuery);
  const saved = profile.data?.profile ?? null;
  return (
    <ContentLayout header={<PageHeader title={TEXT.title} />}>
      <SpaceBetween size="l">
        <Container header={<Header variant="h2">{TEXT.license}</Header>}>
          <KeyValuePairs
            columns={2}
            items={[
              { label: TEXT.licenseKey, value: <Box variant="code">{session?.licenseKey}</Box> },
              { label: TEXT.licenseType, value: TEXT.licenseTypeValue },
            ]}
          />
        </Container>
        <Container header={<Header variant="h2">{TEXT.personal}</Header>}>
          {!profile.isPending && !saved ? (
            <Alert type="info">
              {TEXT.noProfile}{' '}
              <Link
                href="/notary/google"
                onFollow={(event) => {
                  event.preventDefault();
                  navigate('/notary/google');
                }}
              >
                {TEXT.noProfileLink}
              </Link>
            </Alert>
          ) : (
            <KeyValuePairs
              columns={3}
              items={[
                { label: TEXT.fullName, value: saved ? `${saved.firstName} ${saved.lastName}` : '…' },
                { label: TEXT.email, value: saved?.email ?? '…' },
                { label: TEXT.createdAt, value: saved ? formatDate(saved.createdAt) : '…' },
              ]}
            />
          )}
        </Container>
        <SecuritySettings />
        <DataExportPanel />
        <Container header={<Header variant="h2">{TEXT.app}</Header>}>
          <KeyValuePairs
            columns={3}
            items={[
              { label: TEXT.version, value: APP_INFO.version },
              { label: TEXT.lastUpdate, value: APP_INFO.lastUpdate },
              {
                label: TEXT.support,
                value: (
                  <Link href={PROVIDER.contactUrl} external>
                    {PROVIDER.name}
                  </Link>
                ),
              },
            ]}
          />
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
