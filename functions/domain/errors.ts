import { SECOND_FACTOR } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';

/**
 * Errors a request can end with, each carrying its HTTP status and the French message the user
 * reads. Domain services throw them; the error middleware turns them into the one JSON error shape.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
  constructor(message: string, options?: ErrorOptions) {
    super(400, message, options);
  }
}

export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
  constructor(message: string, options?: ErrorOptions) {
    super(401, message, options);
  }
}

export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError';
  constructor(message: string, options?: ErrorOptions) {
    super(403, message, options);
  }
}

export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
  constructor(message: string, options?: ErrorOptions) {
    super(404, message, options);
  }
}

export class ConflictError extends HttpError {
  override name = 'ConflictError';
  constructor(message: string, options?: ErrorOptions) {
    super(409, message, options);
  }
}

/**
 * Errors of the second factor. Each carries its French message; `code` names the one the web
 * client acts on (it asks for the factor, then sends the request again).
 */
export class SecondFactorRequiredError extends HttpError {
  override name = 'SecondFactorRequiredError';
  readonly code = SECOND_FACTOR.stepUpErrorCode;
  constructor(options?: ErrorOptions) {
    super(403, MESSAGES.secondFactor.stepUpRequired, options);
  }
}

/** A session opened by the licence key alone, on a call that needs the second factor passed. */
export class SecondFactorPendingError extends HttpError {
  override name = 'SecondFactorPendingError';
  constructor(options?: ErrorOptions) {
    super(401, MESSAGES.secondFactor.pendingSession, options);
  }
}

/** A wrong authenticator code, recovery code or passkey answer. */
export class InvalidSecondFactorError extends HttpError {
  override name = 'InvalidSecondFactorError';
  constructor(message: string = MESSAGES.secondFactor.invalidCode, options?: ErrorOptions) {
    super(400, message, options);
  }
}

/** Too many wrong codes for one licence: refused until its window ends. */
export class TooManySecondFactorAttemptsError extends HttpError {
  override name = 'TooManySecondFactorAttemptsError';
  constructor(options?: ErrorOptions) {
    super(429, MESSAGES.secondFactor.tooManyAttempts, options);
  }
}
