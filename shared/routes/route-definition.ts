import type { z } from 'zod';

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
  /**
   * The handler file under `functions/` (without extension); one Lambda function per handler.
   * Its needs are declared in `functions/needs.ts`, keyed by these names (`HandlerName`).
   */
  readonly handler: string;
  readonly access: RouteAccess;
  /** Schema of the query string; routes without one ignore it. */
  readonly query?: z.ZodType;
  /** Schema of the JSON body; routes without one take no body. */
  readonly request?: z.ZodType;
  readonly response: z.ZodType;
}
