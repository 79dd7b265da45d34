import { useWorkflowPages } from '../../api/directory';
import { MEMBER_PAGE_SIZE } from '../../components/workflows/use-member-workflows';

/** The data of the planning page: the member's automations, a page at a time. */
export function usePlanning() {
  return useWorkflowPages({ limit: MEMBER_PAGE_SIZE });
}
