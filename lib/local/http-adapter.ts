import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { Context } from 'aws-lambda';
import type { Logger } from '../../functions/domain/core/ports';
import type { ApiEvent, ApiHandler } from '../../functions/http/api-event';
import {
  DEFAULT_HOSTING_REGION,
  MAX_BODY_BYTES,
  PRERENDERED_ROUTES,
  prerenderedPageOf,
} from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';
import { fillPrerenderSlots } from '../../shared/prerender-slots';
import { type RouteDefinition, routeKey } from '../../shared/routes';
import { inlineRuntimeConfig } from '../runtime-config-html';
import { SECURITY_HEADERS } from '../site-headers';
import {
  type ContentEncoding,
  compress,
  isCompressible,
  MIN_COMPRESSED_BYTES,
  preferredEncoding,
} from './compression';
import { LOCAL_EXPORTS_PATH } from './data-exports';

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  readonly parameterNames: string[];
  readonly handler: ApiHandler;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The longest path served: API Gateway refuses request lines beyond its limits before any route
 * is matched, and no route of ours has a use for more.
 */
const MAX_PATH_LENGTH = 2_048;

/** A percent-decoded path segment, or null when its encoding is malformed (`%E0%A4%A`, `%ZZ`). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function compile(route: RouteDefinition, handler: ApiHandler): CompiledRoute {
  const parameterNames: string[] = [];
  const source = route.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
      parameterNames.push(name);
      return '([^/]+)';
    });
  return { route, pattern: new RegExp(`^${source}$`), parameterNames, handler };
}

/** Reads a request body, refusing (null) one larger than the API accepts. */
function readBody(request: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolveBody(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, statusCode: number, body: unknown) {
  response.writeHead(statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

/** A file of the built SPA, read once, with its compressed copies made on first use. */
interface SiteFile {
  readonly modifiedMs: number;
  readonly body: Buffer;
  readonly encoded: Map<ContentEncoding, Promise<Buffer>>;
}

/**
 * Sends a reply, compressed with the client's preferred encoding when its type is worth it: the
 * static files' compressed copies are kept (`cached`), an API reply is compressed each time.
 */
async function sendBody(
  request: IncomingMessage,
  response: ServerResponse,
  statusCode: number,
  headers: Record<string, string>,
  body: Buffer,
  cached?: Map<ContentEncoding, Promise<Buffer>>,
) {
  const compressible =
    isCompressible(headers['content-type']) &&
    !headers['content-encoding'] &&
    body.length >= MIN_COMPRESSED_BYTES;
  const encoding = compressible ? preferredEncoding(request.headers['accept-encoding']) : undefined;
  let payload = body;
  if (encoding) {
    let compressed = cached?.get(encoding);
    if (!compressed) {
      compressed = compress(body, encoding, cached ? 'static' : 'dynamic');
      cached?.set(encoding, compressed);
    }
    payload = await compressed;
  }
  response.writeHead(statusCode, {
    ...headers,
    // Caches (the browser's, a proxy's) must keep one copy per encoding.
    ...(compressible ? { vary: 'accept-encoding' } : {}),
    ...(encoding ? { 'content-encoding': encoding } : {}),
    'content-length': String(payload.length),
  });
  response.end(request.method === 'HEAD' ? undefined : payload);
}

export interface HttpAdapterOptions {
  readonly routes: readonly { route: RouteDefinition; handler: ApiHandler }[];
  /** The built SPA (web/dist). */
  readonly siteDirectory: string;
  /** The SPA's runtime settings, written into index.html and served as /config.json like the deployed site. */
  readonly siteConfig: Record<string, unknown>;
  readonly logger: Logger;
  /**
   * The firms' data exports, served under `/exports/` as S3 serves a pre-signed link: the file its
   * signed link names, else a 403.
   */
  readonly downloads?: { resolveDownload(url: URL): { path: string; fileName: string } | null };
}

/**
 * The local API Gateway and CloudFront: `/api/*` as HTTP API v2 events for the same handlers,
 * the rest the SPA with its fallback, headers, compression and caching as deployed.
 */
export function createHttpAdapter(options: HttpAdapterOptions) {
  const compiled = options.routes.map(({ route, handler }) => compile(route, handler));
  const siteRoot = resolve(options.siteDirectory);
  const indexFile = join(siteRoot, 'index.html');
  /** The pre-rendered pages, each answering its route (as the CloudFront function does). */
  const prerendered = new Map<string, string>(
    PRERENDERED_ROUTES.map((route) => [route, join(siteRoot, prerenderedPageOf(route))]),
  );
  /** The pages that carry the runtime settings. */
  const pages = new Set([indexFile, ...prerendered.values()]);
  const siteConfigJson = JSON.stringify(options.siteConfig);
  const siteFiles = new Map<string, SiteFile>();

  /** A site file's content, kept until the file changes (a new `npm run build:web`). */
  function siteFile(file: string): SiteFile {
    const modifiedMs = statSync(file).mtimeMs;
    const known = siteFiles.get(file);
    if (known?.modifiedMs === modifiedMs) return known;
    const raw = readFileSync(file);
    const body = pages.has(file)
      ? Buffer.from(
          fillPrerenderSlots(
            inlineRuntimeConfig(raw.toString('utf8'), siteConfigJson),
            options.siteConfig,
            DEFAULT_HOSTING_REGION,
          ),
        )
      : raw;
    const fresh: SiteFile = { modifiedMs, body, encoded: new Map() };
    siteFiles.set(file, fresh);
    return fresh;
  }

  /**
   * Compresses the SPA's files in the background at start (about half a second of CPU on the thread
   * pool), so that a first visitor does not wait for it.
   */
  function warmUp(directory: string) {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) warmUp(path);
      else if (isCompressible(CONTENT_TYPES[extname(path)])) {
        const file = siteFile(path);
        if (file.body.length < MIN_COMPRESSED_BYTES) continue;
        for (const encoding of ['br', 'gzip'] as const) {
          const compressed = compress(file.body, encoding, 'static');
          // A failure here is retried on first use.
          compressed.catch(() => file.encoded.delete(encoding));
          file.encoded.set(encoding, compressed);
        }
      }
    }
  }
  if (existsSync(siteRoot)) warmUp(siteRoot);

  async function serveApi(request: IncomingMessage, response: ServerResponse, url: URL) {
    const method = request.method ?? 'GET';
    const matches = compiled
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(url.pathname) }))
      .filter((entry) => entry.match);
    const found = matches.find((entry) => entry.candidate.route.method === method);
    if (!found?.match) {
      await readBody(request, 0);
      if (matches.length > 0) return sendJson(response, 405, { error: MESSAGES.request.methodNotAllowed });
      return sendJson(response, 404, { error: MESSAGES.request.notFound });
    }
    const { candidate, match } = found;
    const body = await readBody(request, MAX_BODY_BYTES);
    if (body === null) return sendJson(response, 413, { error: MESSAGES.request.tooLarge });
    const decoded = candidate.parameterNames.map((_, index) => decodeSegment(match[index + 1] ?? ''));
    // API Gateway answers a path parameter it cannot decode with a 400, before any function runs.
    if (decoded.some((value) => value === null))
      return sendJson(response, 400, { error: MESSAGES.request.invalid });
    const pathParameters = Object.fromEntries(
      candidate.parameterNames.map((name, index) => [name, decoded[index] ?? '']),
    );
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name !== 'cookie')
        .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : (value ?? '')]),
    );
    const key = routeKey(candidate.route);
    const now = new Date();
    const event: ApiEvent = {
      version: '2.0',
      routeKey: key,
      rawPath: url.pathname,
      rawQueryString: url.search.slice(1),
      cookies: request.headers.cookie?.split(/;\s*/),
      headers,
      queryStringParameters: url.searchParams.size > 0 ? Object.fromEntries(url.searchParams) : undefined,
      pathParameters: candidate.parameterNames.length > 0 ? pathParameters : undefined,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: url.hostname,
        domainPrefix: url.hostname,
        http: {
          method,
          path: url.pathname,
          protocol: `HTTP/${request.httpVersion}`,
          sourceIp: (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
          userAgent: request.headers['user-agent'] ?? '',
        },
        requestId: randomUUID(),
        routeKey: key,
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
      },
      body: body.length > 0 ? body : undefined,
      isBase64Encoded: false,
    };
    const result = await candidate.handler(event, {
      awsRequestId: event.requestContext.requestId,
    } as Context);
    // As API Gateway does with a payload 2.0 reply's `cookies`: one Set-Cookie header each.
    if (result.cookies?.length) response.setHeader('set-cookie', result.cookies);
    await sendBody(
      request,
      response,
      result.statusCode ?? 200,
      { ...(result.headers as Record<string, string>) },
      Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8'),
    );
  }

  async function serveSite(request: IncomingMessage, response: ServerResponse, url: URL) {
    if (url.pathname === '/config.json') {
      return sendJson(response, 200, options.siteConfig);
    }
    const decodedPath = decodeSegment(url.pathname);
    if (decodedPath === null) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
      return response.end('Bad request');
    }
    const requested = normalize(decodedPath);
    let file = resolve(join(siteRoot, requested));
    const inside = file === siteRoot || file.startsWith(siteRoot + sep);
    const isFile = inside && existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      // A path with an extension is a missing asset; any other path is a route of the SPA.
      if (extname(requested)) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
        return response.end('Not found');
      }
      // A route pre-rendered at build time has its own page (when the build wrote it).
      const page = prerendered.get(requested.replace(/(.)\/+$/, '$1'));
      file = page && existsSync(page) ? page : indexFile;
    }
    const hashedAsset = file.startsWith(join(siteRoot, 'assets') + sep);
    const { body, encoded } = siteFile(file);
    await sendBody(
      request,
      response,
      200,
      {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...SECURITY_HEADERS,
      },
      body,
      encoded,
    );
  }

  async function serveDownload(response: ServerResponse, file: { path: string; fileName: string } | null) {
    if (!file) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
      return response.end('Lien de téléchargement invalide ou expiré');
    }
    response.writeHead(200, {
      'content-type': 'application/zip',
      'content-length': String(statSync(file.path).size),
      'content-disposition': `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
      'cache-control': 'private, no-store',
      ...SECURITY_HEADERS,
    });
    await pipeline(createReadStream(file.path), response);
  }

  return async (request: IncomingMessage, response: ServerResponse) => {
    const started = Date.now();
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      if (url.pathname.length > MAX_PATH_LENGTH) {
        request.resume();
        return sendJson(response, 404, { error: MESSAGES.request.notFound });
      }
      if (url.pathname === '/api' || url.pathname.startsWith('/api/')) await serveApi(request, response, url);
      else if (options.downloads && url.pathname.startsWith(LOCAL_EXPORTS_PATH)) {
        await serveDownload(response, options.downloads.resolveDownload(url));
      } else if (request.method === 'GET' || request.method === 'HEAD')
        await serveSite(request, response, url);
      else sendJson(response, 405, { error: MESSAGES.request.methodNotAllowed });
    } catch (error) {
      options.logger.error('Erreur du serveur local', {
        path: url.pathname,
        errorName: (error as Error).name,
      });
      if (!response.headersSent) sendJson(response, 500, { error: MESSAGES.request.internal });
      else response.end();
    } finally {
      if (url.pathname.startsWith('/api/')) {
        response.once('finish', () =>
          options.logger.info(
            `${request.method} ${url.pathname} ${response.statusCode} ${Date.now() - started}ms`,
          ),
        );
      }
    }
  };
}
