import type { z } from 'zod';

/**
 * Who may call a route:
 * - `public`: anyone, no session;
 * - `signed-in`: any valid session whose licence is active;
 * - `admin`: a session of an admin licence;
 * - `member`: a session of a lawyer or notary licence;
 * - `second-factor`: any session, including a "second factor pending" one (opened by the licence
 *   key alone), which every other access refuses.
 * Ownership rules (a lawyer only touches his own workflows) are enforced by the domain services.
 */
export type RouteAccess = 'public' | 'signed-in' | 'admin' | 'member' | 'second-factor';

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
  /**
   * A sensitive admin action: the caller's second factor is asked again when its last check is
   * older than `SECOND_FACTOR.stepUpMaxAgeSeconds` (licences with a factor only).
   */
  readonly sensitive?: true;
  /**
   * A create that takes an `Idempotency-Key` header: its first reply is kept with the change, in
   * the same transaction (or, for a create made at the payment provider, by the provider under the
   * same key), and a retry with the same key gets it back (sent with `status`) instead of creating again.
   */
  readonly idempotent?: { readonly status: 200 | 201 };
  /** Schema of the JSON body; routes without one take no body. */
  readonly request?: z.ZodType;
  readonly response: z.ZodType;
}
