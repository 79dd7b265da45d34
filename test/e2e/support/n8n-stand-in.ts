import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook call as n8n receives it: its path, the automation and what started the run, and, when
 * the run asks for one, its report link.
 */
export interface ReceivedCall {
  readonly path: string;
  readonly workflowName?: string;
  readonly trigger?: string;
  readonly report?: { readonly url: string; readonly runId: string };
}

/** Stands in for n8n on 127.0.0.1: answers every call 200, then hands it to `onCall`. */
export async function startN8nStandIn(
  onCall: (call: ReceivedCall) => void,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      const body = JSON.parse(raw || '{}') as Omit<ReceivedCall, 'path'>;
      onCall({
        path: request.url ?? '/',
        ...(body.workflowName ? { workflowName: body.workflowName } : {}),
        ...(body.trigger ? { trigger: body.trigger } : {}),
        ...(body.report ? { report: body.report } : {}),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
