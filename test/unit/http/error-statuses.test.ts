import { describe, expect, it } from 'vitest';

import * as billingErrors from '../../../functions/domain/billing/billing-errors';
import * as domainErrors from '../../../functions/domain/core/errors';
import {
  DomainError,
  InvalidInputError,
  NotFoundError,
  StoreUnavailableError,
} from '../../../functions/domain/core/errors';
import {
  ERROR_STATUSES,
  errorReplyOf,
  RequestTooLargeError,
  statusOf,
  statusOfClass,
} from '../../../functions/http/error-statuses';
import { MESSAGES } from '../../../shared/messages';

/** Every error class the domain modules export, found by walking their exports. */
const domainErrorClasses: (abstract new (...args: never[]) => DomainError)[] = [
  ...Object.values(domainErrors),
  ...Object.values(billingErrors),
].filter((value) => typeof value === 'function' && value.prototype instanceof DomainError);

describe('the error status table', () => {
  it('finds the domain error classes to check', () => {
    expect(domainErrorClasses.map((type) => type.name)).toEqual(
      expect.arrayContaining(['NotFoundError', 'InvalidInputError', 'PaymentProviderUnavailableError']),
    );
  });

  it.each(
    domainErrorClasses
      .filter((type) => type !== StoreUnavailableError)
      .map((type) => [type.name, type] as const),
  )('gives %s a status of its own line, 4xx', (_name, type) => {
    // Act
    const status = ERROR_STATUSES.get(type);

    // Assert: each class is listed, not merely inheriting, so a new one must be placed consciously.
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it('answers the store failing with 503, a Retry-After delay and the French message, never a 500', () => {
    // Act
    const reply = errorReplyOf(new StoreUnavailableError({ cause: new Error('connect ECONNREFUSED') }));

    // Assert: the only 5xx of the table, as the request itself was fine and may be sent again.
    expect(reply).toEqual({
      statusCode: 503,
      message: 'Service momentanément indisponible, réessayez dans quelques secondes',
      kind: 'listed',
      retryAfterSeconds: StoreUnavailableError.retryAfterSeconds,
    });
    expect([...ERROR_STATUSES.values()].filter((status) => status >= 500)).toEqual([503]);
  });

  it('answers a listed error with its status and its own French message', () => {
    // Arrange
    const error = new InvalidInputError('lawyerEmail', MESSAGES.workflow.unknownLawyer);

    // Act
    const reply = errorReplyOf(error);

    // Assert
    expect(reply).toEqual({ statusCode: 400, message: MESSAGES.workflow.unknownLawyer, kind: 'listed' });
  });

  it('gives a subclass its parent status when it has no line of its own', () => {
    // Arrange
    class FolderGoneError extends NotFoundError {}

    // Act
    const status = statusOf(new FolderGoneError(MESSAGES.folder.notFound));

    // Assert
    expect(status).toBe(404);
  });

  it('answers a body too large with 413', () => {
    expect(errorReplyOf(new RequestTooLargeError())).toEqual({
      statusCode: 413,
      message: MESSAGES.request.tooLarge,
      kind: 'listed',
    });
  });

  it.each([
    ['an unknown error', new Error('Détail interne: clé sk_live_123')],
    ['a TypeError', new TypeError('cannot read x of undefined')],
    ['a thrown string', 'Détail interne'],
    ['undefined', undefined],
  ])('answers %s with a 500 and the generic message, without details', (_case, error) => {
    // Act
    const reply = errorReplyOf(error);

    // Assert
    expect(reply).toEqual({ statusCode: 500, message: MESSAGES.request.internal, kind: 'unexpected' });
  });

  it('answers a write lost to a concurrent transaction with 409', () => {
    // Arrange
    const error = Object.assign(new Error('Transaction cancelled'), { name: 'TransactionConflictException' });

    // Act
    const reply = errorReplyOf(error);

    // Assert
    expect(reply).toEqual({ statusCode: 409, message: MESSAGES.request.conflict, kind: 'write-conflict' });
  });

  it('refuses to give a status to a class it does not list', () => {
    class UnlistedError extends Error {}

    expect(() => statusOfClass(UnlistedError)).toThrow('UnlistedError');
  });
});
