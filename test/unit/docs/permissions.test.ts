import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { ROUTES, type RouteDefinition } from '../../../shared/routes';

const DOCUMENT = fileURLToPath(new URL('../../../docs/permissions.md', import.meta.url));

/**
 * The routes docs/permissions.md gives a row of its tables to, with the caller its second cell
 * names: a row's first cell is the route in code (`METHOD /path`, a query after `?` allowed).
 */
function documentedRoutes(markdown: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const route = /^`([A-Z]+ \/[^`?\s]*)[^`]*`$/.exec(cells[1] ?? '');
    if (route?.[1]) rows.set(route[1], cells[2] ?? '');
  }
  return rows;
}

describe('docs/permissions.md', () => {
  const rows = documentedRoutes(readFileSync(DOCUMENT, 'utf8'));

  it('has a row for every route of the route table, saying who may call it', () => {
    const routes = Object.values(ROUTES as Readonly<Record<string, RouteDefinition>>).map(
      (route) => `${route.method} ${route.path}`,
    );

    const missing = routes.filter((route) => !rows.has(route));
    const unsaid = routes.filter((route) => rows.has(route) && rows.get(route) === '');

    expect(missing).toEqual([]);
    expect(unsaid).toEqual([]);
  });

  it('has no row for a route the table does not have', () => {
    const routes = new Set(
      Object.values(ROUTES as Readonly<Record<string, RouteDefinition>>).map(
        (route) => `${route.method} ${route.path}`,
      ),
    );

    expect([...rows.keys()].filter((route) => !routes.has(route))).toEqual([]);
  });
});
