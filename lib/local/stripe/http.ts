import type { IncomingMessage, ServerResponse } from 'node:http';

import { PAGE_CSP } from './pages';
import { badRequest } from './validation';

const MAX_BODY_BYTES = 1024 * 1024;

/** A refusal on a hosted page, shown to the buyer in French. */
export class PageError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(badRequest('Request body too large.'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export function sendJson(
  response: ServerResponse,
  statusCode: number,
  json: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(JSON.stringify(json));
}

export function sendHtml(response: ServerResponse, statusCode: number, body: string) {
  response.writeHead(statusCode, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  response.end(body);
}

export function redirect(response: ServerResponse, location: string) {
  response.writeHead(303, { location, 'cache-control': 'no-store' });
  response.end();
}

/** Whether the caller is a browser (an HTML page) rather than a script (JSON). */
export const wantsHtml = (request: IncomingMessage) => (request.headers.accept ?? '').includes('text/html');
