import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_HANDLERS } from '../../functions/handlers';
import type { ApiHandler } from '../../functions/http/api-event';
import type { HandlerName } from '../../functions/needs';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { createHttpAdapter } from '../../lib/local/http-adapter';
import { ROUTES, type RouteDefinition } from '../../shared/routes';

/** The local HTTP API (the adapter `npm start` serves) over the real handlers of every route. */
export interface LocalApi {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startLocalApi(deps: AppDependencies): Promise<LocalApi> {
  const site = mkdtempSync(join(tmpdir(), 'local-api-site-'));
  writeFileSync(
    join(site, 'index.html'),
    '<!doctype html><html><head><title>SPA</title></head><body></body></html>',
  );
  const handlers = new Map<HandlerName, ApiHandler>();
  const routes = Object.values(ROUTES).map((route: RouteDefinition & { handler: HandlerName }) => {
    if (!handlers.has(route.handler)) handlers.set(route.handler, API_HANDLERS[route.handler](deps));
    return { route, handler: handlers.get(route.handler)! };
  });
  const server = createServer(
    createHttpAdapter({ routes, siteDirectory: site, siteConfig: { apiBaseUrl: '' }, logger: deps.logger }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(site, { recursive: true, force: true });
    },
  };
}
