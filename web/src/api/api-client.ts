import {
  ErrorReply,
  MESSAGES,
  type ReplyOf,
  type RequestOf,
  ROUTES,
  type RouteDefinition,
  type RouteName,
  routePath,
  SECOND_FACTOR,
} from '../../../shared';
import { STRINGS } from '../strings';
import { ApiHttpError, ApiNetworkError, ApiReplyError, ApiRequestError } from './api-errors';
import { readStoredSession } from './session-storage';

/** Options of one backend call. */
export interface CallOptions<B = unknown> {
  /** Values of the `{name}` parameters of the route path. */
  readonly params?: Record<string, string>;
  /** Query string parameters of a GET route (undefined values are left out). */
  readonly query?: Record<string, string | undefined>;
  /** The JSON body, checked against the route's request schema before it is sent. */
  readonly body?: B;
  /** The session token to send; by default the stored session's, for every non-public route. */
  readonly token?: string;
  readonly signal?: AbortSignal;
  /** The request already sent for this call (web/public/first-reads.js): its reply is read instead. */
  readonly sent?: Promise<Response>;
  /**
   * A create's Idempotency-Key (`useSubmissionKey`): the same for every sending of one form's
   * content, so the server creates it once and answers a retry with its first reply.
   */
  readonly idempotencyKey?: string;
}

/** Called when a protected call is refused with 401: the session it used is over. */
export type SessionEndedListener = (token: string, message: string) => void;

/**
 * Called when a sensitive action asks for the second factor again: resolves true once the user
 * passed it (the call is then sent again), false when he gave up.
 */
export type SecondFactorAsker = () => Promise<boolean>;

let apiBaseUrl = '';
let sessionEndedListener: SessionEndedListener | undefined;
let secondFactorAsker: SecondFactorAsker | undefined;

/** Sets the API origin read from `/config.json` (empty: same origin). */
export function configureApi(settings: { readonly apiBaseUrl: string }): void {
  apiBaseUrl = settings.apiBaseUrl;
}

/**
 * Registers the one listener told when the server refuses a session (the auth provider, which
 * clears it and goes to /login). Returns the function that unregisters it.
 */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListener = listener;
  return () => {
    if (sessionEndedListener === listener) sessionEndedListener = undefined;
  };
}

/** Registers the one step-up dialog (the signed-in layout's). Returns the function that unregisters it. */
export function onSecondFactorRequired(asker: SecondFactorAsker): () => void {
  secondFactorAsker = asker;
  return () => {
    if (secondFactorAsker === asker) secondFactorAsker = undefined;
  };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * Calls one route of the route table: sends the bearer token of the session, checks the body
 * against the route's request schema and parses the reply with its reply schema.
 *
 * @throws {ApiRequestError} the body does not match the request schema (nothing is sent)
 * @throws {ApiNetworkError} the server could not be reached
 * @throws {ApiHttpError} the server answered with an error status
 * @throws {ApiReplyError} the reply does not match the reply schema
 */
export async function callRoute(route: RouteDefinition, options: CallOptions = {}): Promise<unknown> {
  let body: string | undefined;
  if (route.request) {
    const parsed = route.request.safeParse(options.body ?? {});
    if (!parsed.success) {
      throw new ApiRequestError(parsed.error.issues[0]?.message ?? MESSAGES.request.invalid, {
        cause: parsed.error,
      });
    }
    // The body as written, once known valid: the server parses it with the same schema, and a
    // transformed copy would lose what the caller left out on purpose (an omitted secret field
    // keeps its stored value, a null one clears it).
    body = JSON.stringify(options.body ?? {});
  }
  const token = options.token ?? (route.access === 'public' ? undefined : readStoredSession()?.token);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (route.idempotent && options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;

  let response: Response;
  try {
    const query = new URLSearchParams(
      Object.entries(options.query ?? {}).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    ).toString();
    response = await (options.sent ??
      fetch(`${apiBaseUrl}${routePath(route, options.params)}${query ? `?${query}` : ''}`, {
        method: route.method,
        headers,
        body,
        signal: options.signal,
      }));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiNetworkError(STRINGS.api.networkError, { cause: error });
  }

  const payload = await readJson(response);
  if (!response.ok) {
    const errorReply = ErrorReply.safeParse(payload).data;
    const serverMessage = errorReply?.error;
    const message =
      serverMessage ?? (response.status >= 500 ? MESSAGES.request.internal : MESSAGES.request.invalid);
    if (response.status === 401 && route.access !== 'public' && token) sessionEndedListener?.(token, message);
    // A sensitive action whose last second-factor check is too old: ask for it, then send it again.
    if (
      errorReply?.code === SECOND_FACTOR.stepUpErrorCode &&
      secondFactorAsker &&
      (await secondFactorAsker())
    )
      return callRoute(route, options);
    throw new ApiHttpError(
      response.status,
      message,
      serverMessage,
      { code: errorReply?.code },
      errorReply?.existingLawyer,
    );
  }
  const reply = route.response.safeParse(payload);
  if (!reply.success) throw new ApiReplyError(STRINGS.api.badReply, { cause: reply.error });
  return reply.data;
}

/**
 * Calls a route by its name in the route table, typed by the table: `callApi('listWorkflows')`,
 * `callApi('getWorkflow', { params: { id } })`, `callApi('createFolder', { body })`.
 */
export async function callApi<N extends RouteName>(
  name: N,
  options: CallOptions<RequestOf<N>> = {},
): Promise<ReplyOf<N>> {
  return (await callRoute(ROUTES[name], options)) as ReplyOf<N>;
}
