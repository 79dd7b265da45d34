import { type Mock, vi } from 'vitest';

/** One request the app sent, as the network boundary saw it. */
export interface SentRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

type Responder = (request: SentRequest) => Response | Promise<Response>;

/** What the lists of a fresh deployment answer: nothing yet. */
const EMPTY_LISTS: Record<string, unknown> = {
  '/api/workflows': { workflows: [] },
  '/api/folders': { folders: [] },
  '/api/lawyers': { lawyers: [] },
  '/api/counts': {
    workflows: {
      total: 0,
      active: 0,
      scheduled: 0,
      running: 0,
      byType: { client_management: 0, document_classification: 0, client_reminder: 0 },
    },
    lawyers: 0,
    folders: 0,
  },
  // Automation health: nothing has run yet, the settings at their defaults.
  '/api/health/dashboard': { hours: [], failing: [], failingTotal: 0 },
  '/api/health/settings': {
    pauseAfterFailures: 5,
    alertEmail: null,
    dailyDigest: false,
    deploymentAlertEmail: 'astreinte@cabinet.fr',
  },
  // No second factor enrolled yet.
  '/api/second-factor': {
    required: false,
    enrolled: false,
    totp: false,
    passkeys: [],
    recoveryCodesLeft: 0,
    verifiedAt: null,
  },
};

/** The health of an automation that has never run. */
const neverRun = (workflowId: string) => ({
  workflowId,
  state: 'healthy',
  lastSuccessAt: null,
  lastFailureAt: null,
  lastFailureMessage: null,
  lastFailureStatus: null,
  consecutiveFailures: 0,
  pausedAt: null,
  pauseReason: null,
});

/**
 * A backend with no data: the lists answer empty (so that a page can load around what a test
 * looks at), the cards' health as never run, every other call 404.
 */
export const emptyBackend: Responder = (request) => {
  const url = new URL(request.url, 'http://localhost');
  const path = url.pathname;
  if (request.method === 'GET' && path === '/api/health/workflows') {
    // The cards shown ask for their health: each of these automations exists and has never run.
    const ids = url.searchParams.get('ids')?.split(',') ?? [];
    return jsonResponse(200, { workflows: ids.map(neverRun) });
  }
  const list = request.method === 'GET' ? EMPTY_LISTS[path] : undefined;
  return list ? jsonResponse(200, list) : jsonResponse(404, { error: 'Ressource introuvable.' });
};

/**
 * Replaces `fetch` at the network boundary; by default an empty backend (`/config.json` and other
 * calls answer 404). Every request is recorded.
 */
export function mockNetwork(responder: Responder = emptyBackend) {
  const requests: SentRequest[] = [];
  const fetchMock: Mock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request: SentRequest = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    return responder(request);
  });
  return {
    fetchMock,
    requests,
    /** Requests to one API path, whatever their query (a list's page, a search). */
    to: (path: string) =>
      requests.filter((request) => new URL(request.url, 'http://localhost').pathname === path),
  };
}
