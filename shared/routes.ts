import type { z } from 'zod';

import { BILLING_ROUTES } from './routes/billing';
import { DIRECTORY_ROUTES } from './routes/directory';
import { HEALTH_ROUTES } from './routes/health';
import { SCHEDULING_ROUTES } from './routes/scheduling';
import { SECOND_FACTOR_ROUTES } from './routes/second-factor';
import { SESSION_ROUTES } from './routes/session';

export type { HttpMethod, RouteAccess, RouteDefinition } from './routes/route-definition';

import type { RouteDefinition } from './routes/route-definition';

/**
 * The route table: every backend call, grouped by area (one file per area under `routes/`).
 */
export const ROUTES = {
  ...SESSION_ROUTES,
  ...DIRECTORY_ROUTES,
  ...SCHEDULING_ROUTES,
  ...HEALTH_ROUTES,
  ...BILLING_ROUTES,
  ...SECOND_FACTOR_ROUTES,
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof ROUTES;
export type Routes = typeof ROUTES;

/** The request body type of a route. */
export type RequestOf<N extends RouteName> = Routes[N] extends { request: infer S extends z.ZodType }
  ? z.input<S>
  : undefined;

/** The reply type of a route. */
export type ReplyOf<N extends RouteName> = z.output<Routes[N]['response']>;

/** API Gateway route key of a route ("POST /api/verify-license"). */
export const routeKey = (route: RouteDefinition): string => `${route.method} ${route.path}`;

/** The handler file of a route (`functions/handlers/<area>/<handler>.ts`), each one Lambda function. */
export type HandlerName = Routes[RouteName]['handler'];

/** The distinct handler files of the route table, each one Lambda function. */
export const handlerNames = (): HandlerName[] => [
  ...new Set(Object.values(ROUTES).map((route) => route.handler)),
];

/** Fills the `{name}` parameters of a route path. */
export function routePath(route: RouteDefinition, params: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Paramètre de chemin manquant: ${name}`);
    return encodeURIComponent(value);
  });
}
