import { callApi } from './api-client';
import { KEYS } from './keys';
import { useServerPages } from './server-pages';

/** The admin audit trail, newest first, a page per 'Charger plus'. */
export function useAuditPages(errorMessage: string) {
  return useServerPages({
    queryKey: KEYS.audit,
    read: (cursor, signal) => callApi('listAudit', { query: cursor ? { cursor } : {}, signal }),
    // 'Charger plus' that fails: the entries shown stay, and so does the button, for another try.
    errorMessage,
  });
}
