import { useQuery } from '@tanstack/react-query';

import { HEALTH_LOOKUP_MAX } from '../../../shared';
import type { HealthSettings, WorkflowHealth } from '../../../shared/schemas/health';
import { callApi } from './api-client';
import { KEYS } from './keys';

/** How often the health of the cards shown is read again, while they show. */
export const HEALTH_REFRESH_MS = 30_000;

/**
 * The health of the automations whose cards a page shows (their ids, at most `HEALTH_LOOKUP_MAX`),
 * read once, then every 30 s while the page shows them; never the rest of the list's. A card's id
 * the server did not answer is `null`: deleted since the list was read, or not the user's.
 */
export function useWorkflowsHealth(ids: readonly string[]) {
  const shown = ids.slice(0, HEALTH_LOOKUP_MAX);
  return useQuery({
    queryKey: KEYS.health(shown),
    queryFn: async ({ signal }) => {
      const { workflows } = await callApi('workflowsHealth', { query: { ids: shown.join(',') }, signal });
      const found = new Map(workflows.map((health) => [health.workflowId, health]));
      return new Map<string, WorkflowHealth | null>(shown.map((id) => [id, found.get(id) ?? null]));
    },
    enabled: shown.length > 0,
    refetchInterval: HEALTH_REFRESH_MS,
    // The health of cards shown again stays on screen while it is read anew.
    placeholderData: (previous) => previous,
  });
}

export const workflowHealthQuery = (id: string) => ({
  queryKey: KEYS.workflowHealth(id),
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('workflowHealth', { params: { id }, signal }),
});

export const healthDashboardQuery = {
  queryKey: KEYS.healthDashboard,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('healthDashboard', { signal }),
};

export const healthSettingsQuery = {
  queryKey: KEYS.healthSettings,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('healthSettings', { signal }),
};

export const updateHealthSettings = (body: HealthSettings) => callApi('updateHealthSettings', { body });

export const resumeWorkflow = (id: string) => callApi('resumeWorkflow', { params: { id } });

export const testWorkflowConnection = (id: string) => callApi('testWorkflowConnection', { params: { id } });
