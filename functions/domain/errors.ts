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
