import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callApi } from './api-client';
import { KEYS } from './keys';

/** The browsers remembered for having passed the licence's factor. */
export const rememberedBrowsersQuery = {
  queryKey: KEYS.rememberedBrowsers,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('listRememberedBrowsers', { signal }),
};

/** Forgets a remembered browser (its sessions end); the list is read again. */
export function useForgetRememberedBrowser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi('forgetRememberedBrowser', { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS.rememberedBrowsers }),
  });
}
