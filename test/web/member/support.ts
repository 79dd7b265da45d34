import type { Lawyer, ProfileReply, Role, Workflow } from '../../../shared';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { countsReply, workflowListReply } from '../support/workflow-lists';

/** What the member's backend holds: his profile (or none yet) and his workflows. */
export interface MemberBackend {
  readonly profile?: Lawyer | null;
  /** The e-mail the server puts in the session; the profile's by default. */
  readonly sessionEmail?: string;
  readonly workflows?: readonly Workflow[];
  /** Answers a request before the defaults do; return undefined to fall through. */
  readonly override?: (request: SentRequest) => Response | undefined;
}

function profileReply(profile: Lawyer | null, sessionEmail: string, previous: string): ProfileReply {
  return { profile, sessionEmail, sessionEmailChanged: sessionEmail !== previous };
}

/**
 * Signs a lawyer or notary in (session e-mail `sessionEmail`) and opens `path` against a backend
 * serving his profile on GET /api/me and his workflows on GET /api/workflows.
 */
export function openAsMember(
  role: Extract<Role, 'lawyer' | 'notary'>,
  path: string,
  backend: MemberBackend = {},
  session: Parameters<typeof storeSessionOf>[1] = {},
) {
  const stored = storeSessionOf(role, session);
  const profile = backend.profile ?? null;
  const sessionEmail = backend.sessionEmail ?? profile?.email ?? stored.email;
  const network = mockNetwork((request) => {
    const answered = backend.override?.(request);
    if (answered) return answered;
    const pathname = new URL(request.url, 'http://localhost').pathname;
    if (pathname === '/api/me' && request.method === 'GET') {
      return jsonResponse(200, profileReply(profile, sessionEmail, stored.email));
    }
    if (pathname === '/api/workflows' && request.method === 'GET') {
      return workflowListReply(backend.workflows ?? [], request.url);
    }
    if (pathname === '/api/counts' && request.method === 'GET') return countsReply(backend.workflows ?? []);
    return emptyBackend(request);
  });
  return { network, session: stored, app: renderApp(path) };
}
