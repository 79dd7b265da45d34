import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';

/**
 * Why a request could not be served, said by its meaning: a service throws these and knows nothing
 * of HTTP. Each carries the French message the user reads (from shared/messages.ts); the one table
 * of `functions/http/error-statuses.ts` gives each its status.
 */
export abstract class DomainError extends Error {}

/** The request names a value the rules refuse; `field` names it when one field is to blame. */
export class InvalidInputError extends DomainError {
  override name = 'InvalidInputError';
  constructor(
    readonly field: string | null,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** No valid session, or the session's licence is no longer active. */
export class UnauthenticatedError extends DomainError {
  override name = 'UnauthenticatedError';
}

/** The caller is known but may not do this. */
export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
}

/** The resource does not exist, or the caller may not know that it does. */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
}

/** The resource's state refuses the change (taken, changed meanwhile, inactive). */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
}

/** The same thing was attempted too often, too recently: try again later. */
export class TooManyAttemptsError extends DomainError {
  override name = 'TooManyAttemptsError';
}

/**
 * A create's Idempotency-Key first sent with another request: the key names one request only,
 * so the second is refused (422, as the IETF draft on the header asks) rather than replayed.
 */
export class IdempotencyKeyReusedError extends DomainError {
  override name = 'IdempotencyKeyReusedError';
}

/** 'Nouvel avocat' found the e-mail or key already in use: the reply names the lawyer who has it. */
export class ExistingLawyerError extends ConflictError {
  override name = 'ExistingLawyerError';
  constructor(
    message: string,
    readonly existingLawyer: { id: string; firstName: string; lastName: string; email: string },
  ) {
    super(message);
  }
}

/**
 * A sensitive action whose last second-factor check is too old. `code` names it for the web client,
 * which asks for the factor, then sends the request again.
 */
export class SecondFactorRequiredError extends ForbiddenError {
  override name = 'SecondFactorRequiredError';
  readonly code = SECOND_FACTOR.stepUpErrorCode;
  constructor(options?: ErrorOptions) {
    super(MESSAGES.secondFactor.stepUpRequired, options);
  }
}

/** A session opened by the licence key alone, on a call that needs the second factor passed. */
export class SecondFactorPendingError extends UnauthenticatedError {
  override name = 'SecondFactorPendingError';
  constructor(options?: ErrorOptions) {
    super(MESSAGES.secondFactor.pendingSession, options);
  }
}

/** A wrong authenticator code, recovery code or passkey answer. */
export class InvalidSecondFactorError extends InvalidInputError {
  override name = 'InvalidSecondFactorError';
  constructor(message: string = MESSAGES.secondFactor.invalidCode, options?: ErrorOptions) {
    super('code', message, options);
  }
}

/** Too many wrong codes for one licence: refused until its window ends. */
export class TooManySecondFactorAttemptsError extends TooManyAttemptsError {
  override name = 'TooManySecondFactorAttemptsError';
  constructor(options?: ErrorOptions) {
    super(MESSAGES.secondFactor.tooManyAttempts, options);
  }
}

/** A page cursor the list did not give (tampered, truncated, another list's): a 400. */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
  constructor(options?: ErrorOptions) {
    super(MESSAGES.request.invalidCursor, options);
  }
}

/**
 * The database did not answer (unreachable, throttled or timing out) after the client's retries:
 * nothing is wrong with the request, which may be sent again in a few seconds.
 */
export class StoreUnavailableError extends DomainError {
  override name = 'StoreUnavailableError';
  /** How long the client is asked to wait before sending the request again. */
  static readonly retryAfterSeconds = 5;
  constructor(options?: ErrorOptions) {
    super(MESSAGES.request.storeUnavailable, options);
  }
}

/** What the request names existed but is over for good (a link past its time). */
export class GoneError extends DomainError {
  override name = 'GoneError';
}
