import type { ErrorReply } from '../../../shared';

/** Base of every failure of a backend call; `message` is French and fit for the user. */
export class ApiError extends Error {
  override name = 'ApiError';
}

/** The server answered with an error status; `serverMessage` is its `{ error }` text, when it sent one. */
export class ApiHttpError extends ApiError {
  override name = 'ApiHttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage: string | undefined,
    options?: ErrorOptions & { readonly code?: string },
    /** The lawyer a 'Nouvel avocat' ran into (409 of a create-only save). */
    readonly existingLawyer?: ErrorReply['existingLawyer'],
  ) {
    super(message, options);
    this.code = options?.code;
  }

  /** The server's error code, for the few errors the client acts on (`SECOND_FACTOR_REQUIRED`). */
  readonly code: string | undefined;
}

/** The server could not be reached (offline, DNS, connection refused). */
export class ApiNetworkError extends ApiError {
  override name = 'ApiNetworkError';
}

/** The server's reply does not match the route's reply schema. */
export class ApiReplyError extends ApiError {
  override name = 'ApiReplyError';
}

/** The request body does not match the route's request schema; nothing was sent. */
export class ApiRequestError extends ApiError {
  override name = 'ApiRequestError';
}

/**
 * Whether a call failed because the session is over (401): the auth provider already says why and
 * goes to /login, so a page adds no toast of its own.
 */
export function endedSession(error: unknown): boolean {
  return error instanceof ApiHttpError && error.status === 401;
}
