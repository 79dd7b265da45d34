import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { API_HANDLERS } from '../../../functions/handlers';
import { handlerPathOf, NEEDS } from '../../../functions/needs';
import { repositoryPath } from '../../../lib/constructs/repository';
import {
  type HandlerName,
  handlerNames,
  ROUTES,
  type RouteDefinition,
  routeKey,
  routePath,
} from '../../../shared/routes';

const routes = Object.entries(ROUTES as Record<string, RouteDefinition>);

describe('route table', () => {
  it('declares the session routes', () => {
    expect(ROUTES.verifyLicense).toMatchObject({
      method: 'POST',
      path: '/api/verify-license',
      access: 'public',
    });
    expect(ROUTES.signOut).toMatchObject({ method: 'POST', path: '/api/sign-out', access: 'signed-in' });
  });

  it.each(routes)('has a handler file for %s', (_name, route) => {
    const file = repositoryPath(handlerPathOf(route.handler as HandlerName));

    expect(existsSync(file)).toBe(true);
  });

  // Also a compile error (`satisfies Record<HandlerName, …>`); this names the handler at run time.
  it('has one factory and one declaration of needs per handler, and none without a route', () => {
    expect(Object.keys(API_HANDLERS).sort()).toEqual(handlerNames().sort());
    const events = [
      'data-retention',
      'scheduled-tick',
      'due-claimer',
      'webhook-worker',
      'undelivered-mail',
      'portal-link-sender',
      'data-export-builder',
    ];
    expect(Object.keys(NEEDS).sort()).toEqual([...handlerNames(), ...events].sort());
  });

  it('gives every route a distinct route key', () => {
    const keys = routes.map(([, route]) => routeKey(route));

    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('routeKey', () => {
  it('joins method and path as API Gateway names a route', () => {
    expect(routeKey(ROUTES.verifyLicense)).toBe('POST /api/verify-license');
  });
});

describe('routePath', () => {
  const route: RouteDefinition = {
    method: 'GET',
    path: '/api/folders/{folderId}/workflows/{workflowId}',
    handler: 'folders',
    access: 'admin',
    response: ROUTES.signOut.response,
  };

  it('returns a path without parameters as it is', () => {
    expect(routePath(ROUTES.signOut)).toBe('/api/sign-out');
  });

  it('fills the path parameters, encoded', () => {
    expect(routePath(route, { folderId: 'a b', workflowId: 'x/y' })).toBe(
      '/api/folders/a%20b/workflows/x%2Fy',
    );
  });

  it('refuses a missing path parameter', () => {
    expect(() => routePath(route, { folderId: 'f1' })).toThrow('Paramètre de chemin manquant: workflowId');
  });
});
