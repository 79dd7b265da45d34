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
      for (const item of items) {
        const change = pauseSeen(item);
        if (change) announce(change);
      }
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

/** A change to a workflow a page shows: its copy there becomes `apply(copy)`. */
export interface WorkflowChange {
  readonly id: string;
  readonly apply: (shown: Workflow) => Workflow;
}

const changeListeners = new Set<(change: WorkflowChange) => void>();

function announce(change: WorkflowChange): void {
  for (const listener of changeListeners) listener(change);
}

/** Tells the pages that a workflow changed outside them ('Reprendre' turned its scheduling on). */
export function announceWorkflowChange(saved: Workflow): void {
  announce({ id: saved.id, apply: () => saved });
}

/**
 * The automatic pause turns a workflow's scheduling off on the server. A page's copy read before
 * the pause (its last change is older) still has the switch on: beside 'Suspendue' it would say
 * the opposite, and a click on it would turn scheduling back on where the user meant to stop it.
 * Such a copy shows it off; a copy changed since the pause (the switch turned on again) is kept.
 */
function pauseSeen(health: WorkflowHealth): WorkflowChange | null {
  const { pausedAt } = health;
  if (health.state !== 'paused' || pausedAt === null) return null;
  return {
    id: health.workflowId,
    apply: (shown) =>
      shown.cronSettings.enabled && shown.updatedAt < pausedAt
        ? { ...shown, cronSettings: { ...shown.cronSettings, enabled: false }, updatedAt: pausedAt }
        : shown,
  };
}

/** A page's list with a change applied: the same list when the change leaves its copy as it was. */
export function withWorkflowChange<T extends Workflow[] | undefined>(list: T, change: WorkflowChange): T {
  if (!list) return list;
  let changed = false;
  const next = list.map((workflow) => {
    if (workflow.id !== change.id) return workflow;
    const applied = change.apply(workflow);
    changed ||= applied !== workflow;
    return applied;
  });
  return (changed ? next : list) as T;
}

/**
 * Follows the workflows changed outside a page (a card's 'Reprendre', a pause the health read
 * shows), so that its list, its counts and its switches stay right.
 */
export function useWorkflowChanges(listener: (change: WorkflowChange) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward = (change: WorkflowChange) => latest.current(change);
    changeListeners.add(forward);
    return () => {
      changeListeners.delete(forward);
    };
  }, []);
}
