import { useState } from 'react';

import { MESSAGES, type Workflow } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { READ_PAGE, readAllPages } from '../../api/paged-list';
import { useApiQuery } from '../../api/use-api-query';
import { useNotifications } from '../../notifications/notifications-context';
import { useWorkflowChanges } from './health-store';
import { newestFirst } from './workflow-display';

/**
 * The signed-in lawyer's own workflows, newest first (the server sends a member only his own), and
 * the scheduling switch of spec §4 with its toasts.
 */
export function useMemberWorkflows() {
  const notifications = useNotifications();
  // A lawyer has a handful of workflows: all their pages before showing, so the counts are exact.
  const workflows = useApiQuery(async (signal) =>
    newestFirst(await readAllPages(READ_PAGE.workflows, signal)),
  );
  // 'Reprendre' on a card turns scheduling back on, a pause turns it off: the list shows it at once.
  useWorkflowChanges(workflows.setData);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const toggleScheduling = async (workflow: Workflow) => {
    setBusyIds((current) => new Set(current).add(workflow.id));
    try {
      const saved = await callApi('toggleWorkflowScheduling', { params: { id: workflow.id } });
      workflows.setData((current) => current?.map((item) => (item.id === saved.id ? saved : item)));
      notifications.success(
        saved.cronSettings.enabled
          ? MESSAGES.workflow.schedulingEnabled
          : MESSAGES.workflow.schedulingDisabled,
      );
    } catch {
      notifications.error(MESSAGES.workflow.toggleSchedulingFailed);
    } finally {
      setBusyIds((current) => {
        const next = new Set(current);
        next.delete(workflow.id);
        return next;
      });
    }
  };

  return { workflows, busyIds, toggleScheduling };
}
