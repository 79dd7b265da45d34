import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { verifyWebhook } from '../../../functions/adapters/scheduling/webhook-signature';

/** One call the demo receiver got. */
export interface ReceivedCall {
  readonly receivedAt: string;
  readonly path: string;
  readonly webhookId: string | null;
  /** Whether the Standard Webhooks signature verified with the local secret. */
  readonly signatureValid: boolean;
  readonly workflowName: string | null;
  readonly trigger: string | null;
  readonly dueAt: string | null;
  /** What the receiver answered. */
  readonly status: number;
}

export interface DemoReceiver {
  /** The address to give an automation, e.g. http://127.0.0.1:3001/demo-webhook. */
  readonly webhookUrl: string;
  /** The page listing the calls. */
  readonly pageUrl: string;
  /** Calls received, newest first (the last 200). */
  readonly calls: readonly ReceivedCall[];
  stop(): Promise<void>;
}

export interface DemoReceiverOptions {
  readonly port: number;
  /** The `whsec_…` secret the calls are signed with, to check them as n8n would. */
  readonly secret: string;
}

const KEPT_CALLS = 200;
const MAX_BODY_BYTES = 64 * 1024;
/** Paths that answer 500, to watch retries and the dead-letter queue at work. */
const FAILING_PATH = /\/echec(\/|$)/;

/**
 * A demo receiver so a new user sees scheduled calls without n8n: every POST is a call, its
 * signature checked (`/echec` paths answer 500); loopback only.
 */
export async function startDemoReceiver(options: DemoReceiverOptions): Promise<DemoReceiver> {
  const calls: ReceivedCall[] = [];
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
      return response.end(page(calls));
    }
    if (request.method === 'GET' && url.pathname === '/calls.json') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return response.end(JSON.stringify(calls));
    }
    if (request.method !== 'POST') {
      response.writeHead(405);
      return response.end();
    }
    const body = await readBody(request);
    const verification = verifyWebhook(options.secret, request.headers, body);
    const json = parseObject(body.toString('utf8'));
    const status = FAILING_PATH.test(url.pathname) ? 500 : 200;
    calls.unshift({
      receivedAt: new Date().toISOString(),
      path: url.pathname,
      webhookId: headerOf(request, 'webhook-id'),
      signatureValid: verification.valid,
      workflowName: typeof json.workflowName === 'string' ? json.workflowName : null,
      trigger: typeof json.trigger === 'string' ? json.trigger : null,
      dueAt: typeof json.dueAt === 'string' ? json.dueAt : null,
      status,
    });
    calls.length = Math.min(calls.length, KEPT_CALLS);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(status === 200 ? { received: true } : { error: 'échec de démonstration' }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    webhookUrl: `http://127.0.0.1:${port}/demo-webhook`,
    pageUrl: `http://localhost:${port}/`,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const frenchTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('fr-FR', { dateStyle: 'short', timeStyle: 'medium' }) : '—';

function page(calls: readonly ReceivedCall[]): string {
  const rows = calls
    .map(
      (call) => `<tr>
  <td>${escapeHtml(frenchTime(call.receivedAt))}</td>
  <td>${escapeHtml(call.workflowName ?? '—')}</td>
  <td>${escapeHtml(call.trigger ?? '—')}</td>
  <td>${escapeHtml(frenchTime(call.dueAt))}</td>
  <td class="${call.signatureValid ? 'ok' : 'ko'}">${call.signatureValid ? 'signature valide' : 'signature invalide'}</td>
  <td>${call.status}</td>
  <td><code>${escapeHtml(call.webhookId ?? '—')}</code></td>
</tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<title>Récepteur de webhooks de démonstration</title>
<style>
  body { font-family: system-ui, sans-serif; background: #0f1b2a; color: #e9ebed; margin: 2rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #354150; }
  .ok { color: #5fbf5f; } .ko { color: #ff6b6b; }
  code { font-size: .8rem; }
</style>
</head>
<body>
<h1>Récepteur de webhooks de démonstration</h1>
<p>Donnez à une automatisation l'adresse <code>/demo-webhook</code> de ce récepteur (ou un chemin contenant
<code>/echec</code> pour voir les nouvelles tentatives), activez sa planification, et les appels s'affichent ici
(actualisation toutes les 5 secondes). ${calls.length} appel(s) reçu(s).</p>
<table>
<thead><tr><th>Reçu le</th><th>Automatisation</th><th>Déclencheur</th><th>Échéance</th><th>Signature</th><th>Réponse</th><th>webhook-id</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>`;
}
