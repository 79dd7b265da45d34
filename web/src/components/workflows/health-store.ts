import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

import { HEALTH_LOOKUP_MAX, type Workflow } from '../../../../shared';
import type { WorkflowHealth } from '../../../../shared/schemas/health';
import { callApi } from '../../api/api-client';

/** How often the cards' health is read again while a card shows it. */
const REFRESH_MS = 30_000;

/** The workflows whose cards are shown, with how many cards show each. */
const shown = new Map<string, number>();
/** Each shown workflow's health once read; null when the server knows no such automation for the user. */
let snapshot: ReadonlyMap<string, WorkflowHealth | null> = new Map();
/** The read that last brought each workflow's health: an older read that ends later is not kept. */
const broughtBy = new Map<string, number>();
let reads = 0;
let timer: ReturnType<typeof setInterval> | undefined;
/** Cards shown since the last read, asked for together once their page is drawn. */
const unread = new Set<string>();
let unreadTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

/**
 * Reads the health of `ids` (the server answers only those the user may see: a member his own),
 * `HEALTH_LOOKUP_MAX` a request, the requests at once. A failed read keeps what is shown.
 */
async function read(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const number = ++reads;
  const chunks: string[][] = [];
  for (let start = 0; start < ids.length; start += HEALTH_LOOKUP_MAX) {
    chunks.push(ids.slice(start, start + HEALTH_LOOKUP_MAX));
  }
  let items: WorkflowHealth[];
  try {
    const replies = await Promise.all(
      chunks.map((chunk) => callApi('workflowsHealth', { query: { ids: chunk.join(',') } })),
    );
    items = replies.flatMap((reply) => reply.workflows);
  } catch {
    return;
  }
  const next = new Map(snapshot);
  const answered = new Map(items.map((item) => [item.workflowId, item]));
  for (const id of ids) {
    if ((broughtBy.get(id) ?? 0) > number) continue;
    broughtBy.set(id, number);
    const health = answered.get(id);
    // No answer: deleted meanwhile (or not the user's). Its card says so rather than loading on.
    next.set(id, health ?? null);
  }
  // What no card shows any more is not kept.
  for (const id of next.keys()) if (!shown.has(id)) next.delete(id);
  for (const id of broughtBy.keys()) if (!shown.has(id)) broughtBy.delete(id);
  snapshot = next;
  for (const listener of listeners) listener();
  for (const item of items) {
    const change = pauseSeen(item);
    if (change) announce(change);
  }
}

/** Reads the health of every card shown again: after an action on one, and every 30 seconds. */
export function refreshWorkflowHealth(): Promise<void> {
  return read([...shown.keys()]);
}

function subscribe(workflowId: string, listener: () => void): () => void {
  listeners.add(listener);
  shown.set(workflowId, (shown.get(workflowId) ?? 0) + 1);
  if (!snapshot.has(workflowId)) {
    unread.add(workflowId);
    // The cards of a page mount in one render: one request for all of them.
    if (unreadTimer === undefined) {
      unreadTimer = setTimeout(() => {
        unreadTimer = undefined;
        const ids = [...unread];
        unread.clear();
        void read(ids);
      }, 0);
    }
  }
  if (listeners.size === 1) timer = setInterval(() => void refreshWorkflowHealth(), REFRESH_MS);
  return () => {
    listeners.delete(listener);
    const cards = (shown.get(workflowId) ?? 1) - 1;
    if (cards > 0) shown.set(workflowId, cards);
    else shown.delete(workflowId);
    if (listeners.size === 0) {
      clearInterval(timer);
      // No card shows: what was read is not kept, and the next cards shown ask for theirs afresh.
      snapshot = new Map();
      broughtBy.clear();
    }
  };
}

/**
 * The health of one workflow, for its card: the cards drawn ask for their own health together,
 * once, then again every 30 seconds while one shows; never the rest of the list's. Undefined until
 * its first read; null when the read found no such automation (deleted since the list was read).
 */
export function useWorkflowHealth(workflowId: string): WorkflowHealth | null | undefined {
  const subscribeToIt = useCallback((listener: () => void) => subscribe(workflowId, listener), [workflowId]);
  return useSyncExternalStore(subscribeToIt, () => snapshot).get(workflowId);
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
function withWorkflowChange(list: Workflow[] | undefined, change: WorkflowChange): Workflow[] | undefined {
  if (!list) return list;
  let changed = false;
  const next = list.map((workflow) => {
    if (workflow.id !== change.id) return workflow;
    const applied = change.apply(workflow);
    changed ||= applied !== workflow;
    return applied;
  });
  return changed ? next : list;
}

/**
 * Keeps a page's list of workflows right when they change outside it (a card's 'Reprendre', a
 * pause the health read shows): its counts, badges and switches follow at once. `setList` is the
 * list's own updater (`setData` of its query).
 */
export function useWorkflowChanges(
  setList: (update: (current: Workflow[] | undefined) => Workflow[] | undefined) => void,
): void {
  const latest = useRef(setList);
  latest.current = setList;
  useEffect(() => {
    const forward = (change: WorkflowChange) =>
      latest.current((current) => withWorkflowChange(current, change));
    changeListeners.add(forward);
    return () => {
      changeListeners.delete(forward);
    };
  }, []);
}
