import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  pinnedRequest,
} from '../../../../functions/adapters/scheduling/pinned-request';
import type { CheckedWebhookUrl } from '../../../../functions/adapters/scheduling/ssrf-guard';
import { deliverWebhook } from '../../../../functions/adapters/scheduling/webhook-delivery';
import { WebhookTimeoutError } from '../../../../functions/adapters/scheduling/webhook-errors';
import { generateWebhookSecret } from '../../../../functions/adapters/scheduling/webhook-signature';
import { receiversClosedAfterEach } from '../../../support/receiver';

const receiver = receiversClosedAfterEach();

/** A target as `checkWebhookUrl` would return it, for a name that no DNS knows. */
function pinned(url: string, ...addresses: string[]): CheckedWebhookUrl {
  const parsed = new URL(url);
  return {
    url: parsed,
    hostname: parsed.hostname,
    addresses: addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  };
}

function post(target: CheckedWebhookUrl, options: { timeoutMs?: number; maxResponseBytes?: number } = {}) {
  return pinnedRequest({
    target,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{}'),
    timeoutMs: options.timeoutMs ?? 2_000,
    maxResponseBytes: options.maxResponseBytes,
  });
}

describe('pinnedRequest over HTTP', () => {
  it('connects to the pinned address for a name no resolver knows', async () => {
    const n8n = await receiver();

    const response = await post(pinned(`http://n8n.invalid:${n8n.port}/webhook/a`, '127.0.0.1'));

    expect(response).toMatchObject({
      status: 200,
      complete: true,
      json: { message: 'Workflow was started' },
    });
    expect(n8n.calls[0]?.headers.host).toBe(`n8n.invalid:${n8n.port}`);
  });

  it('falls back to the next checked address when the first refuses the connection', async () => {
    const n8n = await receiver();

    const response = await post(pinned(`http://n8n.invalid:${n8n.port}/`, '127.0.0.3', '127.0.0.1'));

    expect(response.status).toBe(200);
    expect(n8n.calls).toHaveLength(1);
  });

  it('reads a body of exactly the cap as complete, and one byte more as cut', async () => {
    const size = 1_000;
    const exact = await receiver((_request, response) => response.end('x'.repeat(size)));
    const over = await receiver((_request, response) => response.end('x'.repeat(size + 1)));

    const [whole, cut] = await Promise.all([
      post(pinned(exact.origin, '127.0.0.1'), { maxResponseBytes: size }),
      post(pinned(over.origin, '127.0.0.1'), { maxResponseBytes: size }),
    ]);

    expect([whole.body.length, whole.complete]).toEqual([size, true]);
    expect([cut.body.length, cut.complete]).toEqual([size, false]);
  });

  it('caps the answer at 64 KB by default', async () => {
    const n8n = await receiver((_request, response) => response.end(Buffer.alloc(200 * 1024, 0x61)));

    const response = await post(pinned(n8n.origin, '127.0.0.1'));

    expect(response.body).toHaveLength(DEFAULT_MAX_RESPONSE_BYTES);
    expect(response.complete).toBe(false);
  });

  it('rejects with a time-out when no status line comes', async () => {
    const silent = await receiver(() => {});

    await expect(post(pinned(silent.origin, '127.0.0.1'), { timeoutMs: 300 })).rejects.toBeInstanceOf(
      WebhookTimeoutError,
    );
  });

  it('returns a redirect as it is, without following it', async () => {
    const target = await receiver();
    const redirecting = await receiver((_request, response) => {
      response.writeHead(302, { location: target.origin });
      response.end();
    });

    const response = await post(pinned(redirecting.origin, '127.0.0.1'));

    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(target.origin);
    expect(target.connections()).toBe(0);
  });
});

describe('pinnedRequest keeps connections alive per pinned target', () => {
  /** A receiver on every local address that notes, per call, which connection and local address it came on. */
  async function connectionNoting() {
    const seen: { readonly connection: string; readonly localAddress: string; readonly host: string }[] = [];
    const listener = await receiver(
      (request, response) => {
        const { socket } = request;
        seen.push({
          connection: `${socket.remoteAddress}:${socket.remotePort}`,
          localAddress: (socket.localAddress ?? '').replace(/^::ffff:/, ''),
          host: request.headers.host ?? '',
        });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      },
      { host: '::' },
    );
    return { listener, seen };
  }

  it('sends a second call to the same target on the same connection', async () => {
    const { listener, seen } = await connectionNoting();
    const target = pinned(`http://n8n.invalid:${listener.port}/webhook/a`, '127.0.0.1');

    await post(target);
    await post(target);

    expect(seen).toHaveLength(2);
    expect(seen[1]?.connection).toBe(seen[0]?.connection);
    expect(listener.connections()).toBe(1);
  });

  it('keeps the connection when the same checked addresses come back in another order', async () => {
    const { listener, seen } = await connectionNoting();
    const url = `http://n8n.invalid:${listener.port}/webhook/a`;

    // A load balancer's name answered in rotating order: the same set of checked addresses.
    await post(pinned(url, '127.0.0.1', '127.0.0.2'));
    await post(pinned(url, '127.0.0.2', '127.0.0.1'));

    expect(seen).toHaveLength(2);
    expect(seen[1]?.connection).toBe(seen[0]?.connection);
    expect(listener.connections()).toBe(1);
  });

  it('never reuses a kept-alive connection for another host name or another checked address', async () => {
    const { listener, seen } = await connectionNoting();
    const port = listener.port;

    await post(pinned(`http://a.invalid:${port}/`, '127.0.0.1'));
    // Same address, another host name: its own connection.
    await post(pinned(`http://b.invalid:${port}/`, '127.0.0.1'));
    // Same host name, the name now resolving elsewhere (a rebinding): its own connection, to the new address.
    await post(pinned(`http://a.invalid:${port}/`, '127.0.0.2'));
    // Back to the first target: its kept-alive connection, still to 127.0.0.1.
    await post(pinned(`http://a.invalid:${port}/`, '127.0.0.1'));

    expect(seen.map(({ host, localAddress }) => [host, localAddress])).toEqual([
      [`a.invalid:${port}`, '127.0.0.1'],
      [`b.invalid:${port}`, '127.0.0.1'],
      [`a.invalid:${port}`, '127.0.0.2'],
      [`a.invalid:${port}`, '127.0.0.1'],
    ]);
    const [first, second, third, fourth] = seen.map(({ connection }) => connection);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(fourth).toBe(first);
    expect(listener.connections()).toBe(3);
  });
});

/** HTTPS needs a certificate; the test makes a throw-away one with the openssl command line. */
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)('pinnedRequest over HTTPS', () => {
  let directory: string;
  let certificate: Buffer;
  let server: HttpsServer;
  let port: number;
  const serverNames: (string | false | null)[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    const key = join(directory, 'key.pem');
    const cert = join(directory, 'cert.pem');
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=n8n.cabinet.test'],
        ...['-addext', 'subjectAltName=DNS:n8n.cabinet.test'],
      ],
      { stdio: 'ignore' },
    );
    certificate = readFileSync(cert);
    server = createHttpsServer({ key: readFileSync(key), cert: certificate }, (request, response) => {
      serverNames.push((request.socket as TLSSocket).servername);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  it('sends the host name as TLS server name and verifies the certificate against it', async () => {
    const response = await pinnedRequest({
      target: pinned(`https://n8n.cabinet.test:${port}/webhook/a`, '127.0.0.1'),
      headers: {},
      body: Buffer.from('{}'),
      timeoutMs: 2_000,
      ca: certificate,
    });

    expect(response).toMatchObject({ status: 200, json: { ok: true } });
    expect(serverNames.at(-1)).toBe('n8n.cabinet.test');
  });

  it('refuses a certificate that does not name the host, even on the pinned address', async () => {
    const calling = pinnedRequest({
      target: pinned(`https://autre.cabinet.test:${port}/`, '127.0.0.1'),
      headers: {},
      body: Buffer.from('{}'),
      timeoutMs: 2_000,
      ca: certificate,
    });

    await expect(calling).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });

  it('refuses a certificate no trusted authority signed', async () => {
    const calling = pinnedRequest({
      target: pinned(`https://n8n.cabinet.test:${port}/`, '127.0.0.1'),
      headers: {},
      body: Buffer.from('{}'),
      timeoutMs: 2_000,
    });

    await expect(calling).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('reports an untrusted certificate as a connection error of the delivery', async () => {
    const outcome = await deliverWebhook({
      url: `https://n8n.cabinet.test:${port}/webhook/a`,
      body: {},
      messageId: 'run_tls',
      secret: generateWebhookSecret(),
      timeoutMs: 2_000,
      allowPrivate: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });

    expect(outcome).toMatchObject({
      ok: false,
      failure: 'network',
      message: 'Erreur de connexion: certificat TLS invalide (DEPTH_ZERO_SELF_SIGNED_CERT)',
    });
  });
});
