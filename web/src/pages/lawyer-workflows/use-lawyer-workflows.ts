import { useCounts, useWorkflowPages } from '../../api/directory';
import { useMemberSearch } from '../../components/workflows/member-search';
import { MEMBER_PAGE_SIZE, useSchedulingSwitch } from '../../components/workflows/use-member-workflows';

/**
 * The data of /lawyer/workflows: his active and pending automations, each a page at a time and
 * searched on the server, their counts (the server's), and the scheduling switch.
 */
export function useLawyerWorkflows() {
  const counts = useCounts()?.workflows;
  const search = useMemberSearch();
  return {
    counts: counts && { active: counts.active, pending: counts.total - counts.active, total: counts.total },
    search,
    active: useWorkflowPages({ limit: MEMBER_PAGE_SIZE, q: search.q, active: true }),
    pending: useWorkflowPages({ limit: MEMBER_PAGE_SIZE, q: search.q, active: false }),
    ...useSchedulingSwitch(),
  };
}
