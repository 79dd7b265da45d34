import type { z } from 'zod';

import { SignOutReply, VerifyLicenseReply, VerifyLicenseRequest } from './schemas/session';

/**
 * Who may call a route:
 * - `public`: anyone, no session;
 * - `signed-in`: any valid session whose licence is active;
 * - `admin`: a session of an admin licence;
 * - `member`: a session of a lawyer or notary licence.
 * Ownership rules (a lawyer only touches his own workflows) are enforced by the domain services.
 */
export type RouteAccess = 'public' | 'signed-in' | 'admin' | 'member';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One backend call: the single declaration web, functions, CDK and the local runtime all read. */
export interface RouteDefinition {
  readonly method: HttpMethod;
  /** API Gateway path syntax, path parameters as `{name}`. */
  readonly path: `/api/${string}`;
  /** The handler file under `functions/` (without extension); one Lambda function per handler. */
  readonly handler: string;
  readonly access: RouteAccess;
  /** Schema of the JSON body; routes without one take no body. */
  readonly request?: z.ZodType;
  readonly response: z.ZodType;
}

/** The route table. */
export const ROUTES = {
  verifyLicense: {
    method: 'POST',
    path: '/api/verify-license',
    handler: 'verify-license',
    access: 'public',
    request: VerifyLicenseRequest,
    response: VerifyLicenseReply,
  },
  signOut: {
    method: 'POST',
    path: '/api/sign-out',
    handler: 'sign-out',
    access: 'signed-in',
    response: SignOutReply,
  },
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

/** The distinct handler files of the route table, each one Lambda function. */
export const handlerNames = (): string[] => [
  ...new Set(Object.values(ROUTES as Record<string, RouteDefinition>).map((route) => route.handler)),
];

/** Fills the `{name}` parameters of a route path. */
export function routePath(route: RouteDefinition, params: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Paramètre de chemin manquant: ${name}`);
    return encodeURIComponent(value);
  });
}
