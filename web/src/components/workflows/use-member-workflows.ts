import { useState } from 'react';

import { MESSAGES, type Workflow } from '../../../../shared';
import { useToggleWorkflow } from '../../api/directory';
import { useNotifications } from '../../notifications/notifications-context';

/** Automations on one page of a member's screens. */
export const MEMBER_PAGE_SIZE = 12;

/**
 * The scheduling switch of a member's own cards (spec §4), with its toasts; the lists and counts
 * follow the server's reply.
 */
export function useSchedulingSwitch() {
  const notifications = useNotifications();
  const toggle = useToggleWorkflow();
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const toggleScheduling = (workflow: Workflow) => {
    setBusyIds((current) => new Set(current).add(workflow.id));
    toggle.mutate(
      { id: workflow.id, flag: 'scheduling' },
      {
        onSuccess: (saved) =>
          notifications.success(
            saved.cronSettings.enabled
              ? MESSAGES.workflow.schedulingEnabled
              : MESSAGES.workflow.schedulingDisabled,
          ),
        onError: () => notifications.error(MESSAGES.workflow.toggleSchedulingFailed),
        onSettled: () =>
          setBusyIds((current) => {
            const next = new Set(current);
            next.delete(workflow.id);
            return next;
          }),
      },
    );
  };

  return { busyIds, toggleScheduling };
}
