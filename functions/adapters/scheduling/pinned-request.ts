import { createHash } from 'node:crypto';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { CheckedWebhookUrl, ResolvedAddress } from './ssrf-guard';
import { WebhookTimeoutError } from './webhook-errors';

/** Response bodies are read up to this size; the rest is dropped (n8n answers are small). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export interface PinnedRequestOptions {
  /** What `checkWebhookUrl` returned: the connection goes to these addresses and nowhere else. */
  readonly target: CheckedWebhookUrl;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Total time for connecting, sending and reading the answer, in milliseconds. */
  readonly timeoutMs: number;
  /** @default DEFAULT_MAX_RESPONSE_BYTES */
  readonly maxResponseBytes?: number;
  /** Trust anchors that replace the system ones for HTTPS (a private CA); the system ones by default. */
  readonly ca?: string | Buffer;
}

export interface PinnedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  /** At most `maxResponseBytes`. */
  readonly body: Buffer;
  /** False when the body was cut at the size cap, or the time-out or the peer ended it early. */
  readonly complete: boolean;
  /** The body parsed as JSON, when it is complete JSON. */
  readonly json?: unknown;
}

/**
 * POSTs to a checked webhook URL over the checked addresses only (no second DNS answer: no
 * rebinding), the TLS name still the URL's host; redirects are not followed. Resolves once the status
 * line arrived; rejects with `WebhookTimeoutError` or the socket's error.
 */
export function pinnedRequest({
  target,
  headers,
  body,
  timeoutMs,
  maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES,
  ca,
}: PinnedRequestOptions): Promise<PinnedResponse> {
  const { url } = target;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const hostname = target.hostname;

  return new Promise<PinnedResponse>((resolve, reject) => {
    let settled = false;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const answer = (incoming: IncomingMessage, complete: boolean) =>
      settle(() => {
        const received = Buffer.concat(chunks, size);
        resolve({
          status: incoming.statusCode ?? 0,
          statusText: incoming.statusMessage ?? '',
          headers: incoming.headers,
          body: received,
          complete,
          ...(complete ? jsonOf(received) : {}),
        });
      });
    // Once the status line is in, the receiver has the call: report its answer, however cut short.
    const fail = (error: Error) => {
      if (response) answer(response, false);
      else settle(() => reject(error));
    };

    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length) },
        // Kept-alive connections, from a pool of its own for this host name and these checked
        // addresses only: a reused socket was opened to one of them, never to another address.
        agent: pinnedAgent(target, ca),
        ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
        ...(ca === undefined ? {} : { ca }),
      },
      (incoming) => {
        response = incoming;
        incoming.on('data', (chunk: Buffer) => {
          if (size + chunk.length <= maxResponseBytes) {
            chunks.push(chunk);
            size += chunk.length;
            return;
          }
          chunks.push(chunk.subarray(0, maxResponseBytes - size));
          size = maxResponseBytes;
          answer(incoming, false);
          request.destroy();
        });
        incoming.on('end', () => answer(incoming, true));
        incoming.on('error', () => answer(incoming, false));
        incoming.on('close', () => answer(incoming, incoming.complete));
      },
    );
    const timer = setTimeout(() => {
      const timeout = new WebhookTimeoutError();
      fail(timeout);
      request.destroy(timeout);
    }, timeoutMs);
    request.on('error', fail);
    request.end(body);
  });
}

/**
 * The DNS lookup of a pinned pool: it answers the checked addresses for the checked host name and
 * refuses anything else, so the socket connects where the guard looked and nowhere else (a second
 * DNS answer, as in DNS rebinding, is never asked for).
 */
function pinnedLookup(hostname: string, addresses: readonly ResolvedAddress[]): LookupFunction {
  return (host, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const candidates = addresses.filter((entry) => family === undefined || entry.family === family);
    const [first] = candidates;
    if (host !== hostname || first === undefined) {
      const error: NodeJS.ErrnoException = new Error(`No checked address for ${host}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) {
      callback(
        null,
        candidates.map(({ address, family }) => ({ address, family })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/** Pools kept at once; the least recently used is closed beyond that. */
const MAX_PINNED_POOLS = 128;
/** An idle kept-alive socket is closed after this, before a receiver's own idle time-out (often 5 s). */
const IDLE_SOCKET_MS = 4_000;
const pools = new Map<string, HttpAgent>();

/**
 * One keep-alive pool per scheme, host, port, set of checked addresses and trust anchors, so a new
 * DNS answer never reuses a socket; keyed by the set, not its order, as load balancers rotate it.
 */
function pinnedAgent(target: CheckedWebhookUrl, ca: string | Buffer | undefined): HttpAgent {
  const { url, hostname, addresses } = target;
  const anchors = ca === undefined ? 'system' : createHash('sha256').update(ca).digest('hex');
  const key = JSON.stringify([
    url.protocol,
    hostname,
    url.port,
    addresses.map(({ address, family }) => `${family}/${address}`).sort(),
    anchors,
  ]);
  const existing = pools.get(key);
  if (existing) {
    // Most recently used last, so that the oldest is the first to go.
    pools.delete(key);
    pools.set(key, existing);
    return existing;
  }
  const options = {
    keepAlive: true,
    timeout: IDLE_SOCKET_MS,
    lookup: pinnedLookup(hostname, addresses),
    ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
    ...(ca === undefined ? {} : { ca }),
  };
  const agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  pools.set(key, agent);
  for (const [oldKey, oldAgent] of pools) {
    if (pools.size <= MAX_PINNED_POOLS) break;
    pools.delete(oldKey);
    oldAgent.destroy();
  }
  return agent;
}

/** Closes every kept-alive connection (tests, and a process that ends). */
export function closePinnedConnections(): void {
  for (const agent of pools.values()) agent.destroy();
  pools.clear();
}

function jsonOf(body: Buffer): { json?: unknown } {
  if (body.length === 0) return {};
  try {
    return { json: JSON.parse(body.toString('utf8')) };
  } catch {
    return {};
  }
}
