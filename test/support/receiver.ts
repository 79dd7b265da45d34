import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One call a receiver got, with the raw body bytes (what a signature covers). */
export interface ReceivedCall {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export type ReceiverHandler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

/** A real HTTP server on a loopback address that records every connection and call. */
export interface Receiver {
  readonly port: number;
  /** `http://<host>:<port>` (IPv6 hosts in brackets). */
  readonly origin: string;
  readonly calls: readonly ReceivedCall[];
  /** TCP connections accepted so far, whether or not a request followed. */
  connections(): number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** @default '127.0.0.1'; '::' listens on every local IPv4 and IPv6 address (dual stack). */
  readonly host?: string;
  /** @default 0, any free port */
  readonly port?: number;
}

/** Answers 200 with a small JSON body, as an n8n webhook set to respond immediately does. */
export const answerOk: ReceiverHandler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ message: 'Workflow was started' }));
};

/** Starts a receiver; every test closes its receivers (awaited) in `afterEach`. */
export async function startReceiver(
  handler: ReceiverHandler = answerOk,
  { host = '127.0.0.1', port = 0 }: ReceiverOptions = {},
): Promise<Receiver> {
  const calls: ReceivedCall[] = [];
  let connections = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      calls.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(request, response, body);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  server.listen({ host, port, ipv6Only: false });
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    port: address.port,
    origin: `http://${shownHost}:${address.port}`,
    calls,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
export async function closedPort(): Promise<number> {
  const receiver = await startReceiver();
  await receiver.close();
  return receiver.port;
}

/** A resolver that answers from a script, one answer per call, and counts its calls. */
export function scriptedResolver(...answers: readonly (readonly string[])[]) {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length, answers.length) - 1] ?? [];
    return answer.map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  };
  return { resolve, calls };
}

/**
 * Receivers started by one test file, all closed after each test: call once at the top of the file
 * and start receivers with the function it returns.
 */
export function receiversClosedAfterEach(): (
  handler?: ReceiverHandler,
  options?: ReceiverOptions,
) => Promise<Receiver> {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((receiver) => receiver.close()));
  });
  return async (handler, options) => {
    const receiver = await startReceiver(handler, options);
    started.push(receiver);
    return receiver;
  };
}
