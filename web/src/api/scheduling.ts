import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { RequestOf } from '../../../shared';
import { STRINGS } from '../strings';
import { callApi } from './api-client';
import { KEYS } from './keys';
import { useServerPages } from './server-pages';

/* The scheduler, manual runs and the execution history. */

export const schedulerStatusQuery = {
  queryKey: KEYS.schedulerStatus,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('schedulerStatus', { signal }),
};

export const runScheduler = (body: RequestOf<'workflowScheduler'>) => callApi('workflowScheduler', { body });

export const redriveDeadLetters = () => callApi('redriveDeadLetters');

export const executeWebhook = (body: RequestOf<'executeWebhook'>) => callApi('executeWebhook', { body });

/** A workflow's execution history, newest first, a page per 'Charger plus'. */
export function useExecutionPages(workflowId: string) {
  return useServerPages({
    queryKey: KEYS.executions(workflowId),
    read: (cursor, signal) =>
      callApi('workflowExecutions', {
        params: { id: workflowId },
        query: cursor ? { cursor } : {},
        signal,
      }),
    errorMessage: STRINGS.executions.moreFailed,
  });
}

/**
 * 'Rejouer': a run of the history sent again; whatever the reply, the history and the figures that
 * count its runs (the dialog's health, the cards', the dashboard's) are read again.
 */
export function useReplayExecution(workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RequestOf<'replayExecution'>) =>
      callApi('replayExecution', { params: { id: workflowId }, body }),
    onSettled: () =>
      Promise.all([
        client.resetQueries({ queryKey: KEYS.executions(workflowId) }),
        client.invalidateQueries({ queryKey: KEYS.workflowHealth(workflowId) }),
        client.invalidateQueries({ queryKey: KEYS.allHealth }),
        client.invalidateQueries({ queryKey: KEYS.healthDashboard }),
      ]),
  });
}
