import { useState } from 'react';
import { useLocation } from 'react-router';

import { type Folder, MESSAGES, type Workflow } from '../../../../shared';
import {
  useCounts,
  useDeleteFolder,
  useDeleteWorkflow,
  useToggleWorkflow,
  useWorkflowPages,
} from '../../api/directory';
import { ADMIN_WORKFLOWS_PAGE_SIZE } from '../../api/keys';
import { linkedSearch } from '../../components/workflows/health-strings';
import { useDebounced } from '../../layout/use-debounced';
import { useNotifications } from '../../notifications/notifications-context';
import { ADMIN_WORKFLOWS_TEXT as TEXT } from './strings';
import { filterQuery, NO_FILTER, type WorkflowFilterValues } from './workflow-filters';

/**
 * The data of /admin/workflows: a page of automations (searched and filtered on the server), the counts, and
 * the actions on them with their toasts. The page renders what this returns.
 */
export function useAdminWorkflows() {
  const notifications = useNotifications();
  const { search } = useLocation();
  // A link from the health dashboard or an alert names the automation to show.
  const [query, setQuery] = useState(() => linkedSearch(search));
  const q = useDebounced(query.trim());
  const [filters, setFilters] = useState<WorkflowFilterValues>(NO_FILTER);
  const filtered = filterQuery(filters);
  const workflows = useWorkflowPages({ limit: ADMIN_WORKFLOWS_PAGE_SIZE, q, ...filtered });
  const counts = useCounts();
  const toggleWorkflow = useToggleWorkflow();
  const deleteWorkflow = useDeleteWorkflow();
  const deleteFolder = useDeleteFolder();

  const toggle = (workflow: Workflow, flag: 'active' | 'scheduling') =>
    toggleWorkflow.mutate(
      { id: workflow.id, flag },
      {
        onSuccess: (saved) =>
          notifications.success(
            flag === 'active'
              ? saved.active
                ? MESSAGES.workflow.activated
                : MESSAGES.workflow.deactivated
              : saved.cronSettings.enabled
                ? MESSAGES.workflow.schedulingEnabled
                : MESSAGES.workflow.schedulingDisabled,
          ),
        onError: () =>
          notifications.error(
            flag === 'active'
              ? MESSAGES.workflow.toggleActiveFailed
              : MESSAGES.workflow.toggleSchedulingFailed,
          ),
      },
    );

  return {
    query,
    setQuery,
    filters,
    setFilters,
    searching: q !== '' || Object.keys(filtered).length > 0,
    workflows,
    owners: workflows.page?.owners ?? [],
    counts,
    toggle,
    removeWorkflow: async (workflow: Workflow) => {
      await deleteWorkflow.mutateAsync(workflow.id);
      notifications.success(MESSAGES.workflow.deleted);
    },
    removeFolder: async (folder: Folder) => {
      try {
        await deleteFolder.mutateAsync(folder.id);
        notifications.success(TEXT.deleteFolder.deleted);
      } catch (error) {
        notifications.error(TEXT.deleteFolder.failed);
        throw error;
      }
    },
  };
}
