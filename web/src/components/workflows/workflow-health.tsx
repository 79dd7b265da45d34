import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useState } from 'react';

import type { Workflow } from '../../../../shared';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import type { HealthState, HealthWindow, WorkflowHealth } from '../../../../shared/schemas/health';
import { endedSession } from '../../api/api-errors';
import { useReplaceWorkflow } from '../../api/directory';
import {
  resumeWorkflow,
  testWorkflowConnection,
  useWorkflowsHealth,
  workflowHealthQuery,
} from '../../api/health';
import { KEYS } from '../../api/keys';
import { useAuth } from '../../auth/auth-context';
import { formatDateTime } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { REPORTS_TEXT } from '../scheduling/strings';
import { HEALTH_TEXT as TEXT } from './health-strings';
import { PlainMessage, plainToast } from './plain-message';

/** The health of the cards a page shows, read by their container (undefined until read). */
const HealthOfShown = createContext<ReadonlyMap<string, WorkflowHealth | null> | undefined>(undefined);

/**
 * The health of the cards inside: the ids of the cards shown, read together once, then every 30
 * seconds while they show (api/health.ts); never the rest of the list's.
 */
export function ShownWorkflowsHealth({
  ids,
  children,
}: {
  readonly ids: readonly string[];
  readonly children: ReactNode;
}) {
  const { data } = useWorkflowsHealth(ids);
  return <HealthOfShown.Provider value={data}>{children}</HealthOfShown.Provider>;
}

/** A card's health: undefined until read; null when the server knows no such automation any more. */
export function useWorkflowHealth(workflowId: string): WorkflowHealth | null | undefined {
  return useContext(HealthOfShown)?.get(workflowId);
}

/**
 * The workflow as its card shows it: the automatic pause turned its scheduling off on the server;
 * a copy read before the pause (its last change is older) still has the switch on, and beside
 * 'Suspendue' it would say the opposite (a click on it would turn scheduling back on).
 */
export function withPauseSeen(workflow: Workflow, health: WorkflowHealth | null | undefined): Workflow {
  const pausedAt = health?.state === 'paused' ? health.pausedAt : null;
  return pausedAt && workflow.cronSettings.enabled && workflow.updatedAt < pausedAt
    ? { ...workflow, cronSettings: { ...workflow.cronSettings, enabled: false }, updatedAt: pausedAt }
    : workflow;
}

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
      const reply = await testWorkflowConnection(workflow.id);
      if (reply.success) notifications.success(reply.message);
      else notifications.error(plainToast((message) => message, reply.message));
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
  const client = useQueryClient();
  const replace = useReplaceWorkflow();
  const [resuming, setResuming] = useState(false);
  const resume = async () => {
    setResuming(true);
    try {
      replace(await resumeWorkflow(workflow.id));
      await client.invalidateQueries({ queryKey: KEYS.allHealth });
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
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: KEYS.allHealth });
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
          <PlainMessage message={health.pauseReason} />
        </Box>
      )}
      {health && health.state !== 'paused' && health.state !== 'healthy' && health.lastFailureAt && (
        <Box variant="small">
          <PlainMessage
            prefix={TEXT.lastFailure(formatDateTime(health.lastFailureAt), '')}
            message={health.lastFailureMessage ?? ''}
          />
        </Box>
      )}
      <SpaceBetween direction="horizontal" size="xs">
        {health?.state === 'paused' && <ResumeButton workflow={workflow} />}
        <TestConnectionButton workflow={workflow} onTested={refresh} />
      </SpaceBetween>
    </SpaceBetween>
  );
}

/**
 * Runs delivered whose workflow then reported a failure, apart from the delivery failures: shown
 * once there is one in the week.
 */
const processingFailures = (day: HealthWindow, week: HealthWindow) =>
  (week.processingFailed ?? 0) > 0
    ? [
        {
          label: REPORTS_TEXT.health.processingFailed,
          value: REPORTS_TEXT.health.processingFigures(day.processingFailed ?? 0, week.processingFailed ?? 0),
        },
      ]
    : [];

/** The health figures at the top of the history dialog: state, last runs, 24 hours and 7 days. */
export function WorkflowHealthDetails({ workflowId }: { readonly workflowId: string }) {
  const query = useQuery(workflowHealthQuery(workflowId));
  // The admin keeps the technical figure ('durée p95'); a lawyer or notary reads it in words.
  const { isAdmin } = useAuth();
  const health = query.data;
  if (query.error && !health) {
    return <StatusIndicator type="error">{TEXT.detail.failed}</StatusIndicator>;
  }
  if (!health) return <StatusIndicator type="loading">{TEXT.unknown}</StatusIndicator>;
  const window = (figures: typeof health.last24Hours) =>
    (isAdmin ? TEXT.detail.window : TEXT.detail.windowPlain)(
      figures.runs,
      figures.successRate,
      figures.p95DurationMs,
    );
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
          value: health.lastFailureAt ? (
            <PlainMessage
              prefix={`${formatDateTime(health.lastFailureAt)} — `}
              message={health.lastFailureMessage ?? ''}
            />
          ) : (
            TEXT.detail.none
          ),
        },
        { label: TEXT.detail.consecutive, value: health.consecutiveFailures },
        { label: TEXT.detail.day, value: window(health.last24Hours) },
        { label: TEXT.detail.week, value: window(health.last7Days) },
        ...processingFailures(health.last24Hours, health.last7Days),
        ...(health.pauseReason
          ? [{ label: TEXT.detail.pause, value: <PlainMessage message={health.pauseReason} /> }]
          : []),
      ]}
    />
  );
}
