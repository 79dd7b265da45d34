import { useState } from 'react';

import type { Lawyer } from '../../../../shared';
import { useCounts, useDeleteLawyer, useLawyerPages } from '../../api/directory';
import { useDebounced } from '../../layout/use-debounced';
import { useNotifications } from '../../notifications/notifications-context';

/**
 * What /admin/lawyers and /admin/notaries share: the lawyers a page at a time, searched on the
 * server (first name, last name, e-mail, office name), their number, and the deletion with its
 * toasts (each page's words).
 */
export function useLawyerDirectory(options: {
  readonly pageSize: number;
  readonly loadFailed?: string;
  readonly deleted: (lawyer: Lawyer) => string;
  readonly deleteFailed: string;
}) {
  const notifications = useNotifications();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const lawyers = useLawyerPages(q, options.pageSize, options.loadFailed);
  const counts = useCounts();
  const remove = useDeleteLawyer();
  return {
    query,
    setQuery,
    searching: q !== '',
    lawyers,
    items: lawyers.page?.lawyers ?? [],
    total: counts?.lawyers ?? undefined,
    /** Deletes a lawyer and all that is his; resolves once done, rejects (after its toast) when refused. */
    remove: async (lawyer: Lawyer) => {
      try {
        await remove.mutateAsync(lawyer.id);
        notifications.success(options.deleted(lawyer));
      } catch (error) {
        notifications.error(options.deleteFailed);
        throw error;
      }
    },
  };
}
