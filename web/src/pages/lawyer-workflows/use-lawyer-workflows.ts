import { useCounts, useWorkflowPages } from '../../api/directory';
import { MEMBER_PAGE_SIZE, useSchedulingSwitch } from '../../components/workflows/use-member-workflows';

/**
 * The data of /lawyer/workflows: his active and pending automations, each a page at a time, their
 * counts (the server's), and the scheduling switch.
 */
export function useLawyerWorkflows() {
  const counts = useCounts()?.workflows;
  return {
    counts: counts && { active: counts.active, pending: counts.total - counts.active, total: counts.total },
    active: useWorkflowPages({ limit: MEMBER_PAGE_SIZE, active: true }),
    pending: useWorkflowPages({ limit: MEMBER_PAGE_SIZE, active: false }),
    ...useSchedulingSwitch(),
  };
}
