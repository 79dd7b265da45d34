import { useEffect, useRef, useSyncExternalStore } from 'react';

import type { Workflow } from '../../../../shared';
import type { WorkflowHealth } from '../../../../shared/schemas/health';
import { callApi } from '../../api/api-client';
import { type PageReader, readAllPages } from '../../api/paged-list';

/** How often the cards' health is read again while a card shows it. */
const REFRESH_MS = 30_000;

const readHealthPage: PageReader<WorkflowHealth> = async ({ limit, cursor }, signal) => {
  const { workflows, nextCursor } = await callApi('workflowsHealth', { query: { limit, cursor }, signal });
  return { items: workflows, nextCursor };
};

let snapshot: ReadonlyMap<string, WorkflowHealth> = new Map();
let loading: Promise<void> | null = null;
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

/**
 * Reads the health of every workflow the user sees again (the server sends a member his own only),
 * one request per page. A read in progress is shared; a failed read keeps what is shown.
 */
export function refreshWorkflowHealth(): Promise<void> {
  loading ??= readAllPages(readHealthPage, new AbortController().signal)
    .then((items) => {
      snapshot = new Map(items.map((item) => [item.workflowId, item]));
      for (const listener of listeners) listener();
    })
    .catch(() => undefined)
    .finally(() => {
      loading = null;
    });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    void refreshWorkflowHealth();
    timer = setInterval(() => void refreshWorkflowHealth(), REFRESH_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

/**
 * The health of one workflow, shared by every card of the page: one read for all of them when the
 * first card shows, again every 30 seconds while one does. Undefined until the first read.
 */
export function useWorkflowHealth(workflowId: string): WorkflowHealth | undefined {
  return useSyncExternalStore(subscribe, () => snapshot).get(workflowId);
}

const changeListeners = new Set<(workflow: Workflow) => void>();

/** Tells the pages that a workflow changed outside them ('Reprendre' turned its scheduling on). */
export function announceWorkflowChange(workflow: Workflow): void {
  for (const listener of changeListeners) listener(workflow);
}

/** Follows the workflows changed by a card's health actions, so a page's list stays right. */
export function useWorkflowChanges(listener: (workflow: Workflow) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward = (workflow: Workflow) => latest.current(workflow);
    changeListeners.add(forward);
    return () => {
      changeListeners.delete(forward);
    };
  }, []);
}
