import { useQuery, useQueryClient } from '@tanstack/react-query';

import { MESSAGES } from '../../../../shared';
import { useCounts, useWorkflowPages } from '../../api/directory';
import { profileQuery } from '../../api/profile';
import { MEMBER_PAGE_SIZE } from '../workflows/use-member-workflows';

/**
 * The data of the account configuration: the member's profile, the counts of his automations
 * (its state: waiting, disabled, integrated) and his automations a page at a time.
 */
export function useAccountConfig() {
  return {
    profile: useQuery({ ...profileQuery, meta: { errorMessage: MESSAGES.profile.loadFailed } }),
    counts: useCounts()?.workflows,
    workflows: useWorkflowPages({ limit: MEMBER_PAGE_SIZE }),
    client: useQueryClient(),
  };
}
