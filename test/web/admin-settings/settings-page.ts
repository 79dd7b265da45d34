import createWrapper, { type ContainerWrapper } from '@cloudscape-design/components/test-utils/dom';
import { screen } from '@testing-library/react';

import type { AuditEntry, AuditPage, SchedulerRun, SchedulerStatusReply } from '../../../shared';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';

type Responder = (request: SentRequest) => Response | Promise<Response>;

/** A run as the server keeps it: 3 checked, 2 dispatched (one queued, one refused by the queue). */
export function schedulerRun(overrides: Partial<SchedulerRun> = {}): SchedulerRun {
  return {
    trigger: 'schedule',
    success: true,
    timestamp: '2026-11-23T12:30:00.000Z',
    workflows_checked: 3,
    executions: [
      { workflowId: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'Relance', status: 'success' },
      { workflowId: '1b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'Classement', status: 'failed' },
    ],
    message: 'Planificateur: 1/2 workflows réussis',
    ...overrides,
  };
}

/** The n-th entry of the trail, one minute older than the previous one. */
export function auditEntry(n: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: `entry-${n}`,
    at: new Date(Date.UTC(2026, 10, 23, 12, 0 - n)).toISOString(),
    actorEmail: 'admin@cabinet.fr',
    action: 'workflow.create',
    target: `workflow:0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0a${n % 10}`,
    targetLabel: `Relance ${n}`,
    ...overrides,
  };
}

export const NO_RUN_YET: SchedulerStatusReply = {
  lastScheduledRun: null,
  lastManualRun: null,
  deadLetterCount: 0,
};

/** What the backend of /admin/settings answers; each part can be replaced by a test. */
export interface SettingsBackend {
  readonly status: Responder;
  readonly scheduler: Responder;
  readonly redrive: Responder;
  /** GET /api/audit, given the query string's cursor (null for the first page). */
  readonly audit: (cursor: string | null) => Response | Promise<Response>;
  /** The health routes (/api/health/*): the dashboard and the settings. */
  readonly health: Responder;
}

const EMPTY_TRAIL: AuditPage = { entries: [], nextCursor: null };

/** Opens /admin/settings as a signed-in admin against a fake backend, recording every request. */
export function openSettings(backend: Partial<SettingsBackend> = {}) {
  const parts: SettingsBackend = {
    status: () => jsonResponse(200, NO_RUN_YET),
    scheduler: () => jsonResponse(200, schedulerRun({ trigger: 'manual' })),
    redrive: () => jsonResponse(200, { moved: 0, message: 'Aucune exécution en échec à relancer' }),
    audit: () => jsonResponse(200, EMPTY_TRAIL),
    health: emptyBackend,
    ...backend,
  };
  const network = mockNetwork((request) => {
    const url = new URL(request.url, 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/api/scheduler/status') return parts.status(request);
    if (request.method === 'POST' && url.pathname === '/api/workflow-scheduler')
      return parts.scheduler(request);
    if (request.method === 'POST' && url.pathname === '/api/dead-letters/redrive')
      return parts.redrive(request);
    if (request.method === 'GET' && url.pathname === '/api/audit')
      return parts.audit(url.searchParams.get('cursor'));
    if (url.pathname.startsWith('/api/health/')) return parts.health(request);
    return jsonResponse(404, { error: 'Ressource introuvable.' });
  });
  storeSessionOf('admin');
  const app = renderApp('/admin/settings');
  return { app, network };
}

/** Waits for the page, then for its status call to be answered (the status card is static). */
export async function pageLoaded() {
  await screen.findByRole('heading', { name: 'Paramètres Administrateur', level: 1 });
}

const page = () => createWrapper(document.body);

/** The text of every toast on screen, by type. */
export function toasts(type: 'success' | 'error' | 'info' | 'warning'): string[] {
  return (
    page()
      .findFlashbar()
      ?.findItemsByType(type)
      .map((item) => item.findContent()?.getElement().textContent ?? '') ?? []
  );
}

/** The container whose header title is exactly `title`. */
export function card(title: string): ContainerWrapper {
  const found = page()
    .findAllContainers()
    .find((container) => container.findHeader()?.find('h2')?.getElement().textContent === title);
  if (!found) throw new Error(`Aucune carte « ${title} »`);
  return found;
}

/** The label → value pairs shown in a card. */
export function pairsOf(container: ContainerWrapper): Record<string, string> {
  const entries = createWrapper(container.getElement())
    .findAllKeyValuePairs()
    .flatMap((pairs) => pairs.findItems())
    .map((item) => [
      item.findLabel()?.getElement().textContent ?? '',
      item.findValue()?.getElement().textContent ?? '',
    ]);
  return Object.fromEntries(entries);
}

/** The named button, as a Cloudscape wrapper (disabled, loading). */
export function buttonNamed(name: string) {
  const found = page()
    .findAllButtons()
    .find((button) => button.findTextRegion()?.getElement().textContent === name);
  if (!found) throw new Error(`Aucun bouton « ${name} »`);
  return found;
}
