import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useEffect, useState } from 'react';

import { type Lawyer, type LawyerSaveRequest, MESSAGES } from '../../../../shared';
import { ApiError, endedSession } from '../../api/api-errors';
import { profileQuery, saveProfile } from '../../api/profile';
import { useAuth } from '../../auth/auth-context';
import { PageHeader } from '../../layout/page-header';
import { useNotifications } from '../../notifications/notifications-context';
import { LawyerForm, type LawyerFormVariant, lawyerFormValues } from '../lawyer-form/lawyer-form';
import { memberWorkflowCard } from '../workflows/member-workflow-card';
import { MemberWorkflowCards } from '../workflows/member-workflow-cards';
import { ACCOUNT_CONFIG_TEXT as TEXT } from './strings';
import { useAccountConfig } from './use-account-config';

/** The state of spec §4 "Account configuration" and its banner. */
export function configurationState(
  profile: Lawyer | null,
  counts: { readonly total: number; readonly active: number } | undefined,
): 'not-configured' | 'pending' | 'disabled' | 'integrated' {
  if (!profile) return 'not-configured';
  if (!counts || counts.total === 0) return 'pending';
  return counts.active > 0 ? 'integrated' : 'disabled';
}

function StatusBanner({ state }: { readonly state: ReturnType<typeof configurationState> }) {
  if (state === 'not-configured') return <Alert type="info">{TEXT.notConfigured}</Alert>;
  if (state === 'pending') return <Alert type="warning">{TEXT.pending}</Alert>;
  if (state === 'disabled') return <Alert type="warning">{TEXT.disabled}</Alert>;
  return <Alert type="success">{TEXT.integrated}</Alert>;
}

function ProfileSummary({ profile }: { readonly profile: Lawyer }) {
  const f = TEXT.fields;
  return (
    <KeyValuePairs
      columns={2}
      items={[
        { label: f.name, value: `${profile.firstName} ${profile.lastName}` },
        { label: f.email, value: profile.email },
        { label: f.mainEmail, value: profile.mainEmail },
        { label: f.phone, value: profile.phoneNumber ?? f.none },
        { label: f.office, value: profile.officeName ?? f.none },
        { label: f.reminder, value: f.days(profile.reminderFrequency) },
        { label: f.googlePassword, value: profile.hasGooglePassword ? f.configured : f.notConfigured },
        { label: f.signature, value: profile.emailSignature ?? f.none },
      ]}
    />
  );
}

/**
 * Account configuration (spec §2, §4), for lawyers (/lawyer/account-config, /lawyer/google) and
 * notaries (/notary/google): the form while not configured or on 'Modifier', then the profile and
 * the banner of its state; the licence key. Saving brings the session's e-mail in line.
 */
export function AccountConfiguration({
  variant,
  title,
}: {
  readonly variant: LawyerFormVariant;
  readonly title: string;
}) {
  const { session, updateProfile } = useAuth();
  const notifications = useNotifications();
  const { profile, counts, workflows, client } = useAccountConfig();
  const [editing, setEditing] = useState(false);

  // Spec §4: when the e-mail found with the profile differs from the session's, the session follows.
  const loadedEmail = profile.data?.sessionEmail;
  const loadedProfile = profile.data?.profile;
  useEffect(() => {
    if (!session || !loadedEmail || loadedEmail === session.email) return;
    updateProfile({
      email: loadedEmail,
      name: loadedProfile ? `${loadedProfile.firstName} ${loadedProfile.lastName}` : session.name,
    });
  }, [session, loadedEmail, loadedProfile, updateProfile]);

  const saved = profile.data?.profile ?? null;
  const save = async (request: LawyerSaveRequest) => {
    try {
      const reply = await saveProfile(request);
      client.setQueryData(profileQuery.queryKey, reply);
      if (reply.profile) {
        updateProfile({
          email: reply.sessionEmail,
          name: `${reply.profile.firstName} ${reply.profile.lastName}`,
        });
      }
      notifications.success(MESSAGES.profile.saved);
      setEditing(false);
    } catch (error) {
      if (endedSession(error)) return;
      // An ApiError's message is French and fit for the user; anything else is a bug of ours.
      notifications.error(
        error instanceof ApiError && error.message
          ? `${MESSAGES.profile.saveFailed} : ${error.message}`
          : MESSAGES.profile.saveFailedUnexpected,
      );
    }
  };

  const state = configurationState(saved, counts);
  const showForm = !saved || editing;
  return (
    <ContentLayout header={<PageHeader title={title} description={TEXT.description} />}>
      <SpaceBetween size="l">
        {profile.isPending ? (
          <Box textAlign="center">
            <Spinner size="large" />
            <Box variant="p">{TEXT.loading}</Box>
          </Box>
        ) : profile.error ? (
          <Alert type="error">{MESSAGES.profile.loadFailed}</Alert>
        ) : (
          <>
            <StatusBanner state={state} />
            {showForm ? (
              <Container
                header={
                  <Header variant="h2" description={TEXT.guidance}>
                    {TEXT.formTitle}
                  </Header>
                }
              >
                <LawyerForm
                  variant={variant}
                  initial={lawyerFormValues(saved, saved ? {} : { email: profile.data?.sessionEmail ?? '' })}
                  hasStoredPassword={saved?.hasGooglePassword ?? false}
                  submitLabel={TEXT.save}
                  onSubmit={save}
                  onCancel={saved ? () => setEditing(false) : undefined}
                />
              </Container>
            ) : (
              saved && (
                <Container
                  header={
                    <Header
                      variant="h2"
                      actions={
                        <Button iconName="edit" onClick={() => setEditing(true)}>
                          {TEXT.edit}
                        </Button>
                      }
                    >
                      {TEXT.profileTitle}
                    </Header>
                  }
                >
                  <ProfileSummary profile={saved} />
                </Container>
              )
            )}
          </>
        )}
        {saved && (counts?.total ?? 0) > 0 && (
          <MemberWorkflowCards
            pages={workflows}
            header={<Header variant="h2">{TEXT.workflowsTitle}</Header>}
            cardDefinition={memberWorkflowCard({ googlePath: true })}
          />
        )}
        <Container header={<Header variant="h2">{TEXT.licenseTitle}</Header>}>
          <KeyValuePairs
            items={[
              {
                label: TEXT.licenseKey,
                value: <Box variant="code">{session?.licenseKey || TEXT.demoLicenseKey}</Box>,
              },
            ]}
          />
        </Container>
      </SpaceBetween>
    </ContentLayout>
  );
}
