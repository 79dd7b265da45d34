import Button from '@cloudscape-design/components/button';
import { useEffect, useRef, useState } from 'react';

import { MANUAL_RUN_LOCK_MS, MESSAGES, type Workflow } from '../../../../shared';
import { executeWebhook } from '../../api/scheduling';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { plainToast } from './plain-message';

/**
 * Whether an execute-webhook reply counts as a success (spec §7): success true, or a 2xx status,
 * or neither success nor error present.
 */
export function isRunSuccess(reply: {
  readonly success?: boolean;
  readonly status?: number;
  readonly error?: string;
}): boolean {
  if (reply.success === true) return true;
  if (reply.status !== undefined && reply.status >= 200 && reply.status < 300) return true;
  return reply.success === undefined && reply.error === undefined;
}

export interface RunWorkflowButtonProps {
  readonly workflow: Pick<Workflow, 'id' | 'name' | 'webhookUrl'>;
  /** Called after each run, successful or not (a page may reload the history or the card). */
  readonly onRun?: () => void;
  readonly variant?: 'normal' | 'primary';
}

/**
 * 'Exécuter' (spec §4 manual run): asks the server to call the workflow's own webhook, then stays
 * disabled for 30 seconds (spec §9). Disabled when the workflow has no webhook address.
 */
export function RunWorkflowButton({ workflow, onRun, variant = 'normal' }: RunWorkflowButtonProps) {
  const notifications = useNotifications();
  const [running, setRunning] = useState(false);
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const run = async () => {
    setRunning(true);
    try {
      const reply = await executeWebhook({
        workflowId: workflow.id,
        payload: { timestamp: new Date().toISOString(), source: 'notary_app', trigger: 'manual' },
      });
      if (isRunSuccess(reply)) notifications.success(MESSAGES.workflow.workflowExecuted);
      else {
        notifications.error(
          plainToast(MESSAGES.workflow.executeWorkflowFailed, reply.error ?? reply.message ?? ''),
        );
      }
    } catch (error) {
      notifications.error(
        MESSAGES.workflow.executeWorkflowFailed(error instanceof Error ? error.message : String(error)),
      );
    } finally {
      setRunning(false);
      setLocked(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setLocked(false), MANUAL_RUN_LOCK_MS);
      onRun?.();
    }
  };

  const noWebhook = !workflow.webhookUrl;
  return (
    <Button
      variant={variant}
      iconName="caret-right-filled"
      loading={running}
      disabled={noWebhook || locked}
      disabledReason={
        noWebhook ? STRINGS.workflows.noWebhook : locked ? STRINGS.workflows.runLocked : undefined
      }
      ariaLabel={`${STRINGS.workflows.run} ${workflow.name}`}
      onClick={() => void run()}
    >
      {STRINGS.workflows.run}
    </Button>
  );
}
