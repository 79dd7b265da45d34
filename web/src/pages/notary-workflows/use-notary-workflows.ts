import { useState } from 'react';

import type { WorkflowCategory } from '../../../../shared';
import { useCounts, useWorkflowPages } from '../../api/directory';
import { useMemberSearch } from '../../components/workflows/member-search';
import { MEMBER_PAGE_SIZE, useSchedulingSwitch } from '../../components/workflows/use-member-workflows';

/**
 * The data of /notary/workflows: the automations of the tab shown, a page at a time and searched
 * on the server, the counts of
 * every tab and of those running (the server's), and the scheduling switch.
 */
export function useNotaryWorkflows() {
  const [tab, setTab] = useState<WorkflowCategory>('all');
  const counts = useCounts()?.workflows;
  const search = useMemberSearch();
  const pages = useWorkflowPages({
    limit: MEMBER_PAGE_SIZE,
    q: search.q,
    ...(tab === 'all' ? {} : { type: tab }),
  });
  const countOf = (category: WorkflowCategory) =>
    counts ? (category === 'all' ? counts.total : counts.byType[category]) : undefined;
  return { tab, setTab, counts, countOf, search, pages, ...useSchedulingSwitch() };
}
