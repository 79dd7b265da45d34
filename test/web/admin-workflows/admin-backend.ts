import type { Folder, Lawyer, Workflow, WorkflowType } from '../../../shared';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { countsReply, flagCounts, matchesQuery, pageOf, workflowListReply } from '../support/workflow-lists';

/** What the fake backend holds; the tests read it after an action to see what the server kept. */
export interface AdminBackendState {
  lawyers: Lawyer[];
  workflows: Workflow[];
  folders: Folder[];
}

/** A reply a test forces for one request (a failure, a slow call); undefined lets the backend answer. */
type Override = (request: SentRequest) => Response | Promise<Response> | undefined;

const NOW = '2026-11-23T09:00:00.000Z';

/** The fixed scheduling interval of each type (spec §9), as the server applies it. */
const INTERVALS: Record<WorkflowType, number> = {
  client_management: 2,
  document_classification: 1,
  client_reminder: 1,
};

/** A folder as the API lists it. */
export function folderFixture(overrides: Partial<Folder> = {}): Folder {
  return {
    id: crypto.randomUUID(),
    name: 'Succession Dupont',
    description: null,
    counts: { total: 0, active: 0, scheduled: 0 },
    createdAt: '2026-11-22T09:00:00.000Z',
    updatedAt: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

function notFound(): Response {
  return jsonResponse(404, { error: 'Ressource introuvable.' });
}

/**
 * The admin's API over in-memory lists, answering as the real handlers do (a new workflow is
 * active with scheduling off, a deleted folder leaves its workflows without a folder). Every
 * request is recorded by `mockNetwork`.
 */
export function mockAdminBackend(initial: Partial<AdminBackendState> = {}, override?: Override) {
  const state: AdminBackendState = {
    lawyers: [...(initial.lawyers ?? [])],
    workflows: [...(initial.workflows ?? [])],
    folders: [...(initial.folders ?? [])],
  };

  const workflowRoute = (request: SentRequest, id: string, action: string | undefined) => {
    const index = state.workflows.findIndex((workflow) => workflow.id === id);
    const current = state.workflows[index];
    if (!current) return notFound();
    let next: Workflow | null = current;
    if (request.method === 'PUT' && !action) {
      const { cronEnabled, cronInterval, ...fields } = request.body as Partial<Workflow> & {
        cronEnabled?: boolean;
        cronInterval?: number;
      };
      // The server's rule: a new webhook address or owner stops the scheduling.
      const moved =
        (fields.webhookUrl !== undefined && fields.webhookUrl !== current.webhookUrl) ||
        (fields.lawyerEmail !== undefined && fields.lawyerEmail !== current.lawyerEmail);
      next = {
        ...current,
        ...fields,
        cronSettings: {
          ...current.cronSettings,
          enabled: cronEnabled ?? (moved ? false : current.cronSettings.enabled),
          interval: cronInterval ?? (fields.type ? INTERVALS[fields.type] : current.cronSettings.interval),
        },
      };
    } else if (request.method === 'DELETE' && !action) {
      next = null;
    } else if (request.method === 'POST' && action === 'toggle-active') {
      next = { ...current, active: !current.active };
    } else if (request.method === 'POST' && action === 'toggle-scheduling') {
      next = {
        ...current,
        cronSettings: { ...current.cronSettings, enabled: !current.cronSettings.enabled },
      };
    } else {
      return emptyBackend(request);
    }
    if (next === null) {
      state.workflows.splice(index, 1);
      return jsonResponse(200, { success: true });
    }
    state.workflows[index] = next;
    return jsonResponse(200, next);
  };

  const folderRoute = (request: SentRequest, id: string) => {
    const index = state.folders.findIndex((folder) => folder.id === id);
    const current = state.folders[index];
    if (!current) return notFound();
    if (request.method === 'PUT') {
      const updated = { ...current, ...(request.body as Pick<Folder, 'name' | 'description'>) };
      state.folders[index] = updated;
      return jsonResponse(200, updated);
    }
    if (request.method === 'DELETE') {
      state.folders.splice(index, 1);
      state.workflows = state.workflows.map((workflow) =>
        workflow.folderId === id ? { ...workflow, folderId: null } : workflow,
      );
      return jsonResponse(200, { success: true });
    }
    return emptyBackend(request);
  };

  const network = mockNetwork(async (request) => {
    const forced = await override?.(request);
    if (forced) return forced;
    const path = new URL(request.url, 'http://localhost').pathname;
    const workflowPath = /^\/api\/workflows\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    const folderPath = /^\/api\/folders\/([^/]+)$/.exec(path);
    const query = new URL(request.url, 'http://localhost').searchParams;
    if (request.method === 'GET' && path === '/api/lawyers') {
      const found = state.lawyers.filter((lawyer) =>
        matchesQuery(query, [lawyer.firstName, lawyer.lastName, lawyer.email, lawyer.officeName]),
      );
      const { items, nextCursor } = pageOf(found, query);
      return jsonResponse(200, { lawyers: items, nextCursor });
    }
    if (request.method === 'GET' && path === '/api/workflows') {
      const owners = state.lawyers.map(({ email, firstName, lastName }) => ({ email, firstName, lastName }));
      return workflowListReply(state.workflows, request.url, owners);
    }
    if (request.method === 'GET' && path === '/api/folders') {
      const found = state.folders
        .filter((folder) => matchesQuery(query, [folder.name]))
        .map((folder) => ({
          ...folder,
          counts: flagCounts(state.workflows.filter((item) => item.folderId === folder.id)),
        }));
      const { items, nextCursor } = pageOf(found, query);
      return jsonResponse(200, { folders: items, nextCursor });
    }
    if (request.method === 'GET' && path === '/api/counts') {
      return countsReply(state.workflows, state.lawyers.length, state.folders.length);
    }
    if (request.method === 'POST' && path === '/api/workflows') {
      const input = request.body as Pick<
        Workflow,
        'name' | 'description' | 'webhookUrl' | 'lawyerEmail' | 'type' | 'folderId'
      >;
      const created: Workflow = {
        ...input,
        id: crypto.randomUUID(),
        folderId: input.folderId ?? null,
        active: true,
        cronSettings: { enabled: false, interval: INTERVALS[input.type], lastRun: null, nextRun: null },
        createdAt: NOW,
        updatedAt: NOW,
      };
      state.workflows.unshift(created);
      return jsonResponse(201, created);
    }
    if (request.method === 'POST' && path === '/api/folders') {
      const created = folderFixture({ ...(request.body as Pick<Folder, 'name' | 'description'>) });
      state.folders.unshift(created);
      return jsonResponse(201, created);
    }
    if (request.method === 'POST' && path === '/api/execute-webhook') {
      return jsonResponse(200, { success: true, status: 200 });
    }
    if (workflowPath?.[1]) return workflowRoute(request, workflowPath[1], workflowPath[2]);
    if (folderPath?.[1]) return folderRoute(request, folderPath[1]);
    return emptyBackend(request);
  });

  return {
    ...network,
    state,
    /** The requests with this method to exactly this API path. */
    sent: (method: string, path: string) =>
      network.requests.filter(
        (request) => request.method === method && new URL(request.url, 'http://localhost').pathname === path,
      ),
  };
}
