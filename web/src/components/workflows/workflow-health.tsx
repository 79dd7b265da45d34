import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useState } from 'react';

import type { Workflow } from '../../../../shared';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import type { HealthState } from '../../../../shared/schemas/health';
import { callApi } from '../../api/api-client';
import { endedSession } from '../../api/api-errors';
import { useApiQuery } from '../../api/use-api-query';
import { formatDateTime } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { announceWorkflowChange, refreshWorkflowHealth, useWorkflowHealth } from './health-store';
import { HEALTH_TEXT as TEXT } from './health-strings';

const INDICATOR: Record<HealthState, StatusIndicatorProps.Type> = {
  healthy: 'success',
  degraded: 'warning',
  failing: 'error',
  paused: 'stopped',
};

/** 'En bonne santé', 'Dégradée', 'En échec' or 'Suspendue', with its colour and icon. */
export function HealthStatus({ state }: { readonly state: HealthState }) {
  return <StatusIndicator type={INDICATOR[state]}>{TEXT.states[state]}</StatusIndicator>;
}

/** 'Tester la connexion': one signed test call; its French outcome in a toast. */
export function TestConnectionButton({
  workflow,
  onTested,
}: {
  readonly workflow: Pick<Workflow, 'id' | 'name' | 'webhookUrl'>;
  readonly onTested?: () => void;
}) {
  const notifications = useNotifications();
  const [testing, setTesting] = useState(false);
  const test = async () => {
    setTesting(true);
    try {
      const reply = await callApi('testWorkflowConnection', { params: { id: workflow.id } });
      if (reply.success) notifications.success(reply.message);
      else notifications.error(reply.message);
      onTested?.();
    } catch (error) {
      if (!endedSession(error)) {
        notifications.error(error instanceof Error ? error.message : HEALTH_MESSAGES.testFailed);
      }
    } finally {
      setTesting(false);
    }
  };
  return (
    <Button
      formAction="none"
      iconName="status-positive"
      loading={testing}
      disabled={!workflow.webhookUrl}
      ariaLabel={TEXT.testOf(workflow.name)}
      onClick={() => void test()}
    >
      {TEXT.test}
    </Button>
  );
}

/** 'Reprendre': scheduling back on after the automatic pause; the page's list follows. */
export function ResumeButton({
  workflow,
  onResumed,
}: {
  readonly workflow: Pick<Workflow, 'id' | 'name'>;
  readonly onResumed?: () => void;
}) {
  const notifications = useNotifications();
  const [resuming, setResuming] = useState(false);
  const resume = async () => {
    setResuming(true);
    try {
      const saved = await callApi('resumeWorkflow', { params: { id: workflow.id } });
      announceWorkflowChange(saved);
      await refreshWorkflowHealth();
      notifications.success(HEALTH_MESSAGES.resumed);
      onResumed?.();
    } catch (error) {
      if (!endedSession(error)) notifications.error(HEALTH_MESSAGES.resumeFailed);
    } finally {
      setResuming(false);
    }
  };
  return (
    <Button
      variant="primary"
      iconName="caret-right-filled"
      loading={resuming}
      ariaLabel={TEXT.resumeOf(workflow.name)}
      onClick={() => void resume()}
    >
      {TEXT.resume}
    </Button>
  );
}

/**
 * The health section of an automation card (admin and member): its state, the pause's reason or
 * the last failure, 'Reprendre' when paused and 'Tester la connexion'.
 */
export function WorkflowHealthSection({ workflow }: { readonly workflow: Workflow }) {
  const health = useWorkflowHealth(workflow.id);
  if (health === null) {
    return (
      <SpaceBetween size="xxs">
        <StatusIndicator type="warning">{TEXT.gone}</StatusIndicator>
        <Box variant="small">{TEXT.goneHint}</Box>
      </SpaceBetween>
    );
  }
  return (
    <SpaceBetween size="xs">
      {health ? (
        <HealthStatus state={health.state} />
      ) : (
        <StatusIndicator type="loading">{TEXT.unknown}</StatusIndicator>
      )}
      {health?.state === 'paused' && health.pauseReason && (
        <Box variant="small" color="text-status-error">
          {health.pauseReason}
        </Box>
      )}
      {health && health.state !== 'paused' && health.state !== 'healthy' && health.lastFailureAt && (
        <Box variant="small">
          {TEXT.lastFailure(formatDateTime(health.lastFailureAt), health.lastFailureMessage ?? '')}
        </Box>
      )}
      <SpaceBetween direction="horizontal" size="xs">
        {health?.state === 'paused' && <ResumeButton workflow={workflow} />}
        <TestConnectionButton workflow={workflow} onTested={() => void refreshWorkflowHealth()} />
      </SpaceBetween>
    </SpaceBetween>
  );
}

/** The health figures at the top of the history dialog: state, last runs, 24 hours and 7 days. */
export function WorkflowHealthDetails({ workflowId }: { readonly workflowId: string }) {
  const query = useApiQuery((signal) => callApi('workflowHealth', { params: { id: workflowId }, signal }));
  const health = query.data;
  if (query.error && !health) {
    return <StatusIndicator type="error">{TEXT.detail.failed}</StatusIndicator>;
  }
  if (!health) return <StatusIndicator type="loading">{TEXT.unknown}</StatusIndicator>;
  const window = (figures: typeof health.last24Hours) =>
    TEXT.detail.window(figures.runs, figures.successRate, figures.p95DurationMs);
  return (
    <KeyValuePairs
      columns={3}
      items={[
        { label: TEXT.detail.state, value: <HealthStatus state={health.state} /> },
        {
          label: TEXT.detail.lastSuccess,
          value: health.lastSuccessAt ? formatDateTime(health.lastSuccessAt) : TEXT.detail.none,
        },
        {
          label: TEXT.detail.lastFailure,
          value: health.lastFailureAt
            ? `${formatDateTime(health.lastFailureAt)} — ${health.lastFailureMessage ?? ''}`
            : TEXT.detail.none,
        },
        { label: TEXT.detail.consecutive, value: health.consecutiveFailures },
        { label: TEXT.detail.day, value: window(health.last24Hours) },
        { label: TEXT.detail.week, value: window(health.last7Days) },
        ...(health.pauseReason ? [{ label: TEXT.detail.pause, value: health.pauseReason }] : []),
      ]}
    />
  );
}
