import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import { HealthSettings } from '../../../../shared/schemas/health';
import { endedSession } from '../../api/api-errors';
import { healthSettingsQuery, updateHealthSettings } from '../../api/health';
import { HEALTH_TEXT } from '../../components/workflows/health-strings';
import { useNotifications } from '../../notifications/notifications-context';

const TEXT = HEALTH_TEXT.settings;

type Field = 'pauseAfterFailures' | 'alertEmail';

/**
 * The health settings of /admin/settings: the automatic pause's threshold, the admin's alert
 * address (empty: the deployment's; a warning while there is none) and the daily digest. Saved audited; the server checks each field
 * and answers in French, shown under the field it names.
 */
export function HealthSettingsForm() {
  const notifications = useNotifications();
  const query = useQuery(healthSettingsQuery);
  const client = useQueryClient();
  const [pauseAfter, setPauseAfter] = useState('');
  const [alertEmail, setAlertEmail] = useState('');
  const [dailyDigest, setDailyDigest] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!query.data) return;
    setPauseAfter(String(query.data.pauseAfterFailures));
    setAlertEmail(query.data.alertEmail ?? '');
    setDailyDigest(query.data.dailyDigest);
  }, [query.data]);

  const save = async () => {
    // Checked here with the route's own schema, so each message lands under its field.
    const parsed = HealthSettings.safeParse({
      pauseAfterFailures: pauseAfter.trim() === '' ? Number.NaN : Number(pauseAfter),
      alertEmail: alertEmail.trim() === '' ? null : alertEmail.trim(),
      dailyDigest,
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'pauseAfterFailures' || field === 'alertEmail') && !found[field])
          found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      client.setQueryData(healthSettingsQuery.queryKey, await updateHealthSettings(parsed.data));
      notifications.success(HEALTH_MESSAGES.settingsSaved);
    } catch (error) {
      if (!endedSession(error)) notifications.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Container
      header={
        <Header variant="h2" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
    >
      {query.error && !query.data ? (
        <StatusIndicator type="error">{TEXT.loadFailed}</StatusIndicator>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
          noValidate
        >
          <Form
            actions={
              <Button variant="primary" loading={saving} disabled={!query.data}>
                {TEXT.save}
              </Button>
            }
          >
            <SpaceBetween size="m">
              {query.data && !query.data.alertEmail && !query.data.deploymentAlertEmail ? (
                <Alert type="warning">{TEXT.noAlertAddress}</Alert>
              ) : null}
              <FormField
                label={TEXT.pauseAfter}
                description={TEXT.pauseAfterHint}
                errorText={errors.pauseAfterFailures}
              >
                <Input
                  type="number"
                  inputMode="numeric"
                  value={pauseAfter}
                  onChange={({ detail }) => setPauseAfter(detail.value)}
                />
              </FormField>
              <FormField
                label={TEXT.alertEmail}
                description={TEXT.alertEmailHint(query.data?.deploymentAlertEmail ?? null)}
                errorText={errors.alertEmail}
              >
                <Input
                  type="email"
                  inputMode="email"
                  value={alertEmail}
                  onChange={({ detail }) => setAlertEmail(detail.value)}
                />
              </FormField>
              <Checkbox checked={dailyDigest} onChange={({ detail }) => setDailyDigest(detail.checked)}>
                {TEXT.dailyDigest}
              </Checkbox>
            </SpaceBetween>
          </Form>
        </form>
      )}
    </Container>
  );
}
