import { useState } from 'react';

import type { WorkflowCategory } from '../../../../shared';
import { useCounts, useWorkflowPages } from '../../api/directory';
import { MEMBER_PAGE_SIZE, useSchedulingSwitch } from '../../components/workflows/use-member-workflows';

/**
 * The data of /notary/workflows: the automations of the tab shown, a page at a time, the counts of
 * every tab and of those running (the server's), and the scheduling switch.
 */
export function useNotaryWorkflows() {
  const [tab, setTab] = useState<WorkflowCategory>('all');
  const counts = useCounts()?.workflows;
  const pages = useWorkflowPages({ limit: MEMBER_PAGE_SIZE, ...(tab === 'all' ? {} : { type: tab }) });
  const countOf = (category: WorkflowCategory) =>
    counts ? (category === 'all' ? counts.total : counts.byType[category]) : undefined;
  return { tab, setTab, counts, countOf, pages, ...useSchedulingSwitch() };
}
