import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';

import { GLOBAL_SCHEDULING, MESSAGES, type SchedulerResult } from '../../../../shared';
import { ApiHttpError, ApiNetworkError, endedSession } from '../../api/api-errors';
import { redriveDeadLetters, runScheduler, schedulerStatusQuery } from '../../api/scheduling';
import { LazyHealthDashboard } from '../../components/health-dashboard/lazy-health-dashboard';
import { ResetSecondFactor, SecuritySettings } from '../../components/second-factor/security-settings';
import { PageHeader } from '../../layout/page-header';
import { useNotifications } from '../../notifications/notifications-context';
import { AuditTrail } from './audit-trail';
import { HealthSettingsForm } from './health-settings';
import { SchedulerResultView } from './scheduler-result';
import { ADMIN_SETTINGS_TEXT as TEXT } from './strings';

/**
 * The toast of a trigger whose call failed (spec §8 scheduler messages): no reply at all, the
 * server's own words, an error status without words, or anything else (a reply we cannot read).
 */
function failureMessage(error: unknown): string {
  if (error instanceof ApiNetworkError) return MESSAGES.scheduler.noResponse;
  if (error instanceof ApiHttpError) {
    return error.serverMessage ? MESSAGES.scheduler.error(error.serverMessage) : MESSAGES.scheduler.failed;
  }
  return MESSAGES.scheduler.unexpected;
}

/**
 * 'Paramètres Administrateur' (/admin/settings, spec §2): the automations' health dashboard,
 * 'Déclencher Maintenant' (forced or not), the last results, the scheduler status, the
 * dead-lettered runs, the health settings, and the audit trail.
 */
export function AdminSettingsPage() {
  const notifications = useNotifications();
  const status = useQuery(schedulerStatusQuery);
  const [forced, setForced] = useState(false);
  const [running, setRunning] = useState(false);
  const [redriving, setRedriving] = useState(false);
  const [lastManual, setLastManual] = useState<SchedulerResult | null>(null);

  const trigger = async () => {
    setRunning(true);
    try {
      const result = await runScheduler({
        trigger: forced ? 'manual_force' : 'manual',
        timestamp: new Date().toISOString(),
      });
      setLastManual(result);
      if (result.success) {
        // The server's summary: what the run queued ('… mises en file'), the calls follow.
        notifications.success(result.message);
      } else {
        // A run that finished badly says why in its error, already in the spec's words.
        notifications.error(result.error ?? MESSAGES.scheduler.failed);
      }
      void status.refetch();
    } catch (error) {
      // An ended session is already announced by the auth provider, which goes to /login.
      if (!endedSession(error)) notifications.error(failureMessage(error));
    } finally {
      setRunning(false);
    }
  };

  const redrive = async () => {
    setRedriving(true);
    try {
      const reply = await redriveDeadLetters();
      // Runs that could not be sent (automation deleted, licence inactive) are said, not hidden.
      if (reply.notSent.workflowDeleted + reply.notSent.licenseInactive > 0)
        notifications.warning(reply.message);
      else notifications.success(reply.message);
      void status.refetch();
    } catch (error) {
      if (!endedSession(error)) {
        notifications.error(error instanceof Error ? error.message : MESSAGES.scheduler.failed);
      }
    } finally {
      setRedriving(false);
    }
  };

  // Unreadable (null) or not loaded because the status call failed: either way not available.
  const deadLetters = status.error && !status.data ? null : status.data?.deadLetterCount;
  const statusFailed = status.error !== null && !endedSession(status.error);
  const manual = lastManual ?? status.data?.lastManualRun ?? null;
  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      <SpaceBetween size="l">
        {statusFailed && (
          <Alert
            type="error"
            header={TEXT.statusError}
            action={<Button onClick={() => void status.refetch()}>{TEXT.retry}</Button>}
          >
            {status.error?.message}
          </Alert>
        )}
        <Suspense fallback={<StatusIndicator type="loading">{TEXT.healthLoading}</StatusIndicator>}>
          <LazyHealthDashboard workflowsPath="/admin/workflows" />
        </Suspense>
        <Container
          header={
            <Header
              variant="h2"
              actions={
                <Button
                  variant="primary"
                  iconName="caret-right-filled"
                  loading={running}
                  onClick={() => void trigger()}
                >
                  {TEXT.scheduler.run}
                </Button>
              }
            >
              {TEXT.scheduler.title}
            </Header>
          }
        >
          <Checkbox
            checked={forced}
            description={TEXT.scheduler.forcedHint}
            onChange={({ detail }) => setForced(detail.checked)}
          >
            {TEXT.scheduler.forced}
          </Checkbox>
        </Container>
        <ColumnLayout columns={2}>
          <Container header={<Header variant="h2">{TEXT.lastResult.manual}</Header>}>
            <SchedulerResultView result={manual} />
          </Container>
          <Container header={<Header variant="h2">{TEXT.lastResult.schedule}</Header>}>
            <SchedulerResultView result={status.data?.lastScheduledRun ?? null} />
          </Container>
        </ColumnLayout>
        <ColumnLayout columns={2}>
          <Container header={<Header variant="h2">{TEXT.status.title}</Header>}>
            <SpaceBetween size="s">
              <StatusIndicator type="success">{TEXT.status.active}</StatusIndicator>
              <KeyValuePairs
                columns={2}
                items={[
                  { label: TEXT.status.interval, value: TEXT.status.intervalValue },
                  { label: TEXT.status.concurrency, value: GLOBAL_SCHEDULING.maxConcurrentWorkflows },
                ]}
              />
              <span>{TEXT.status.explanation}</span>
            </SpaceBetween>
          </Container>
          <Container
            header={
              <Header
                variant="h2"
                description={TEXT.deadLetters.description}
                actions={
                  <Button loading={redriving} disabled={!deadLetters} onClick={() => void redrive()}>
                    {TEXT.deadLetters.redrive}
                  </Button>
                }
              >
                {TEXT.deadLetters.title}
              </Header>
            }
          >
            <KeyValuePairs
              items={[
                {
                  label: TEXT.deadLetters.count,
                  value: deadLetters === null ? TEXT.deadLetters.unavailable : (deadLetters ?? '…'),
                },
              ]}
            />
          </Container>
        </ColumnLayout>
        <HealthSettingsForm />
        <SecuritySettings />
        <ResetSecondFactor />
        <AuditTrail />
      </SpaceBetween>
    </ContentLayout>
  );
}
