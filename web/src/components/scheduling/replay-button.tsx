import Button from '@cloudscape-design/components/button';

import type { Execution } from '../../../../shared';
import { endedSession } from '../../api/api-errors';
import { useReplayExecution } from '../../api/scheduling';
import { formatDateTime } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { REPORTS_TEXT } from './strings';

const TEXT = REPORTS_TEXT.replay;

/** Whether a row of the history can be sent again: a run (not a test) that was sent, with its id. */
export const replayable = (execution: Execution) =>
  execution.trigger !== 'test' && execution.outcome !== 'cancelled' && execution.runId !== undefined;

/**
 * 'Rejouer': sends a run of the history again, same body and webhook-id (the server shows it only
 * to an admin or the firm owning the automation, and holds the lock of 'Exécuter'); the reply is
 * told in a toast and the history read again (by the mutation).
 */
export function ReplayButton({
  workflowId,
  execution,
}: {
  readonly workflowId: string;
  readonly execution: Execution;
}) {
  const notifications = useNotifications();
  const replayExecution = useReplayExecution(workflowId);
  const replay = async () => {
    try {
      const reply = await replayExecution.mutateAsync({
        executionId: execution.id,
        startedAt: execution.startedAt,
      });
      if (reply.success) notifications.success(reply.message ?? TEXT.button);
      else notifications.error(reply.error ?? TEXT.failed);
    } catch (error) {
      if (!endedSession(error)) notifications.error(error instanceof Error ? error.message : TEXT.failed);
    }
  };
  return (
    <Button
      variant="inline-link"
      iconName="redo"
      loading={replayExecution.isPending}
      ariaLabel={TEXT.of(formatDateTime(execution.startedAt))}
      onClick={() => void replay()}
    >
      {TEXT.button}
    </Button>
  );
}
