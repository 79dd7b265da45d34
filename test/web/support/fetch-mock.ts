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

/**
 * Replaces `fetch` at the network boundary. `/config.json` and unknown calls answer 404 unless the
 * responder answers them; every request is recorded.
 */
export function mockNetwork(
  responder: Responder = () => jsonResponse(404, { error: 'Ressource introuvable.' }),
) {
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
    /** Requests to one API path. */
    to: (path: string) => requests.filter((request) => request.url.endsWith(path)),
  };
}
