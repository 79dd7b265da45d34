/*
 * What the table's errors mean, apart from its client: the API's error replies classify them
 * without loading the DynamoDB client (a function without a table does not carry it).
 */

/** Errors that say the store is not answering (as opposed to refusing the request). */
const UNAVAILABLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const NETWORK_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_REASONS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

/** The reason codes of a cancelled transaction, one per item of it (none for any other error). */
function cancellationCodes(error: Error): string[] {
  if (error.name !== 'TransactionCanceledException') return [];
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? '');
}

/** Whether an error of the DynamoDB client means the store is unreachable, throttling or timing out. */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isStoreUnavailable)) return true;
  if (UNAVAILABLE_ERRORS.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_FAILURES.has(code)) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  return cancellationCodes(error).some((code) => UNAVAILABLE_REASONS.has(code));
}

/** Whether a DynamoDB error is a failed condition (alone or inside a cancelled transaction). */
export function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  return cancellationCodes(error).includes('ConditionalCheckFailed');
}

/**
 * Sends a conditional write and says whether it applied: false when its condition failed (the
 * item was not as the write expects: taken, gone or moved on meanwhile), which callers treat as
 * an outcome rather than an error. Any other error is thrown.
 */
export async function applied(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Whether a DynamoDB error is a write conflict: two transactions (or a transaction and a plain
 * write) touched the same item at once. DynamoDB Local serialises writes and never raises it, real
 * DynamoDB does under load; the caller may simply try again, so it is a 409, not a 500.
 */
export function isWriteConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TransactionConflictException') return true;
  return cancellationCodes(error).includes('TransactionConflict');
}
