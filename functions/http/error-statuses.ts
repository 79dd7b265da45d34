import { MESSAGES } from '../../shared/messages';
import { isWriteConflict } from '../data/table/table-errors';
import {
  PaymentProviderUnavailableError,
  PaymentsError,
  PromotionCodeRefusedError,
  UnreadableWebhookEventError,
  WebhookSignatureInvalidError,
} from '../domain/billing/billing-errors';
import {
  ConflictError,
  ExistingLawyerError,
  ForbiddenError,
  GoneError,
  IdempotencyKeyReusedError,
  InvalidCursorError,
  InvalidInputError,
  InvalidSecondFactorError,
  NotFoundError,
  SecondFactorPendingError,
  SecondFactorRequiredError,
  StoreUnavailableError,
  TooManyAttemptsError,
  TooManySecondFactorAttemptsError,
  UnauthenticatedError,
} from '../domain/core/errors';

/** The request's body is larger than the route accepts: refused before it is read. */
export class RequestTooLargeError extends Error {
  override name = 'RequestTooLargeError';
  constructor() {
    super(MESSAGES.request.tooLarge);
  }
}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * The one place where a reason for failing becomes an HTTP status. A subclass without its own
 * line takes its parent's status.
 */
export const ERROR_STATUSES: ReadonlyMap<ErrorClass, number> = new Map<ErrorClass, number>([
  [InvalidInputError, 400],
  [InvalidCursorError, 400],
  [PromotionCodeRefusedError, 400],
  [WebhookSignatureInvalidError, 400],
  // The Stripe webhook acknowledges such an event as 'ignored' (200) itself, so Stripe stops
  // retrying it; anywhere else a signed but unreadable event is the sender's mistake.
  [UnreadableWebhookEventError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  // A completion report past its link's 24 hours.
  [GoneError, 410],
  // 'Nouvel avocat' on an existing lawyer's e-mail or key; the reply also names him.
  [ExistingLawyerError, 409],
  [RequestTooLargeError, 413],
  [IdempotencyKeyReusedError, 422],
  // The request was fine; a service it depends on failed: not the server's fault, never a 5xx.
  [PaymentsError, 424],
  [PaymentProviderUnavailableError, 424],
  [TooManyAttemptsError, 429],
  // The second factor: a wrong code is bad input; a pending session is not signed in yet; a
  // sensitive action asks for the factor again (403 with its code); too many wrong codes, 429.
  [InvalidSecondFactorError, 400],
  [SecondFactorPendingError, 401],
  [SecondFactorRequiredError, 403],
  [TooManySecondFactorAttemptsError, 429],
  // The database unreachable, throttled or timing out: nothing was wrong with the request, which
  // the client may send again (with `Retry-After`), never a 500.
  [StoreUnavailableError, 503],
]);

/**
 * The reply an error ends a request with, and what it was: one of the table's, a write lost to a
 * concurrent one, or an error nobody expected (to be logged).
 */
export interface ErrorReply {
  readonly statusCode: number;
  readonly message: string;
  readonly kind: 'listed' | 'write-conflict' | 'unexpected';
  /** The code of the few errors a client acts on (the second factor asked again). */
  readonly code?: string;
  /** Seconds the client should wait before sending the request again (`Retry-After`). */
  readonly retryAfterSeconds?: number;
}

/** The status of an error of a listed class (or of a subclass of one), or undefined. */
export function statusOf(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  for (let type = error.constructor; type && type !== Error; type = Object.getPrototypeOf(type)) {
    const status = ERROR_STATUSES.get(type as ErrorClass);
    if (status !== undefined) return status;
  }
  return undefined;
}

/**
 * The status of a listed class, for a reply that keeps its own shape rather than the error one
 * (the sign-in refusal). A class the table does not list is a programming error.
 */
export function statusOfClass(errorClass: ErrorClass): number {
  const status = statusOf(Object.create(errorClass.prototype));
  if (status === undefined) throw new Error(`${errorClass.name} n'a pas de statut HTTP`);
  return status;
}

/**
 * What a failed request answers: a listed error its status and its own French message; a write
 * lost to a concurrent one a 409 asking to retry; anything else a 500 with the generic message and
 * no details (the caller logs it).
 */
export function errorReplyOf(error: unknown): ErrorReply {
  const status = statusOf(error);
  if (status !== undefined) {
    const code = error instanceof SecondFactorRequiredError ? { code: error.code } : {};
    const retry =
      error instanceof StoreUnavailableError
        ? { retryAfterSeconds: StoreUnavailableError.retryAfterSeconds }
        : {};
    return { statusCode: status, message: (error as Error).message, kind: 'listed', ...code, ...retry };
  }
  if (isWriteConflict(error))
    return { statusCode: 409, message: MESSAGES.request.conflict, kind: 'write-conflict' };
  return { statusCode: 500, message: MESSAGES.request.internal, kind: 'unexpected' };
}
