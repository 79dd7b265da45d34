import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { jsonResult } from '../../../../functions/http/api-event';
import { preferredEncoding } from '../../../../lib/local/compression';
import { createHttpAdapter } from '../../../../lib/local/http-adapter';
import { ROUTES } from '../../../../shared/routes';

const SITE_CONFIG = { apiBaseUrl: '', workflowWebhookBaseUrl: 'http://127.0.0.1:3001' };
/** A built-SPA stand-in: index.html as Vite writes it, a hashed script and a font. */
const SCRIPT = `export const pages = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => `page ${index}`))};`;
const FONT = Buffer.alloc(4096, 7);
const WORKFLOWS = {
  workflows: Array.from({ length: 50 }, (_, index) => ({
    id: `w${index}`,
    name: `Relance dossier ${index}`,
  })),
};

let server: Server;
let baseUrl = '';
const siteDirectory = mkdtempSync(join(tmpdir(), 'local-site-'));

beforeAll(async () => {
  mkdirSync(join(siteDirectory, 'assets'));
  writeFileSync(
    join(siteDirectory, 'index.html'),
    '<!doctype html><html lang="fr"><head><title>Assistant</title>' +
      '<script id="runtime-config" type="application/json"></script></head>' +
      '<body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>',
  );
  writeFileSync(join(siteDirectory, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(siteDirectory, 'assets', 'open-sans-abc123.woff2'), FONT);
  const adapter = createHttpAdapter({
    routes: [{ route: ROUTES.listWorkflows, handler: async () => jsonResult(200, WORKFLOWS) }],
    siteDirectory,
    siteConfig: SITE_CONFIG,
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  server = createServer((request, response) => void adapter(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(siteDirectory, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body and hide the encoding). */
async function get(path: string, acceptEncoding?: string) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const sent = request(
        `${baseUrl}${path}`,
        { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers as Record<string, string | undefined>,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      sent.on('error', reject);
      sent.end();
    },
  );
}

function decoded(reply: { headers: Record<string, string | undefined>; body: Buffer }): string {
  const encoding = reply.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(reply.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(reply.body).toString('utf8');
  return reply.body.toString('utf8');
}

describe('the local server', () => {
  it('writes the runtime settings into index.html, for every route of the SPA, never cached', async () => {
    for (const path of ['/', '/login', '/admin/workflows']) {
      const reply = await get(path, 'gzip, deflate, br');
      const data = /<script id="runtime-config" type="application\/json">([^<]*)<\/script>/.exec(
        decoded(reply),
      );

      expect(reply.status).toBe(200);
      expect(JSON.parse(data?.[1] ?? '')).toEqual(SITE_CONFIG);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('answers /login with its pre-rendered page when the build wrote one, settings written in', async () => {
    const page = join(siteDirectory, 'login.html');
    writeFileSync(
      page,
      '<!doctype html><html lang="fr"><head><script id="runtime-config" type="application/json"></script>' +
        '</head><body><div id="root"><main>Connexion</main></div></body></html>',
    );
    try {
      for (const path of ['/login', '/login/']) {
        const html = decoded(await get(path, 'br'));
        const data = /<script id="runtime-config" type="application\/json">([^<]*)<\/script>/.exec(html);

        expect(html).toContain('<main>Connexion</main>');
        expect(JSON.parse(data?.[1] ?? '')).toEqual(SITE_CONFIG);
      }
      // Every other route keeps the SPA's empty page.
      expect(decoded(await get('/admin/workflows'))).not.toContain('Connexion');
    } finally {
      rmSync(page);
    }
  });

  it('keeps serving /config.json', async () => {
    const reply = await get('/config.json');

    expect(JSON.parse(reply.body.toString('utf8'))).toEqual(SITE_CONFIG);
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    [undefined, undefined],
  ])(
    'compresses a hashed script for Accept-Encoding %s with %s, cached for good',
    async (accept, encoding) => {
      const reply = await get('/assets/index-abc123.js', accept);

      expect(reply.headers['content-encoding']).toBe(encoding);
      expect(reply.headers.vary).toBe('accept-encoding');
      expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
      expect(decoded(reply)).toBe(SCRIPT);
      if (encoding) expect(reply.body.length).toBeLessThan(SCRIPT.length / 2);
    },
  );

  it('sends fonts as they are: woff2 is compressed already', async () => {
    const reply = await get('/assets/open-sans-abc123.woff2', 'gzip, br');

    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['content-type']).toBe('font/woff2');
    expect(reply.body.equals(FONT)).toBe(true);
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    [undefined, undefined],
  ])('compresses an API reply for Accept-Encoding %s with %s, still no-store', async (accept, encoding) => {
    const reply = await get('/api/workflows', accept);

    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe(encoding);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(decoded(reply))).toEqual(WORKFLOWS);
  });
});

describe('the choice of encoding', () => {
  /** Every Accept-Encoding of up to two entries over these codings and weights. */
  const ENTRIES = ['br', 'gzip', 'deflate', 'identity', '*'].flatMap((coding) =>
    [undefined, '0', '0.5', '1'].map((q) => ({ coding, q })),
  );
  const HEADERS = [
    [],
    ...ENTRIES.map((entry) => [entry]),
    ...ENTRIES.flatMap((a) => ENTRIES.map((b) => [a, b])),
  ];

  it('never picks a coding the client refuses with q=0, prefers brotli, then gzip', () => {
    for (const entries of HEADERS) {
      const header = entries
        .map(({ coding, q }) => (q === undefined ? coding : `${coding};q=${q}`))
        .join(', ');
      const weight = (name: string) => {
        const listed = entries.filter((candidate) => candidate.coding === name).at(-1);
        return listed ? Number(listed.q ?? 1) : undefined;
      };
      const accepts = (name: string) => (weight(name) ?? weight('*') ?? 0) > 0;
      const expected = accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : undefined;

      expect(preferredEncoding(header), header).toBe(expected);
    }
  });
});
