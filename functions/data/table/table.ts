import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

import { StoreUnavailableError } from '../../domain/core/errors';

/** The table a repository works on: a document client and the table's name. */
export interface Table {
  readonly doc: DynamoDBDocumentClient;
  readonly name: string;
}

/**
 * How long one request to the table may take: DynamoDB answers in milliseconds, so a request still
 * unanswered after these is retried (the client's 3 attempts), then reported as the store failing,
 * well within an API function's 10 s.
 */
const TABLE_TIMEOUTS = {
  connectionTimeout: 1_000,
  requestTimeout: 2_000,
  throwOnRequestTimeout: true,
} as const;

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

/** Whether an error of the DynamoDB client means the store is unreachable, throttling or timing out. */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isStoreUnavailable)) return true;
  if (UNAVAILABLE_ERRORS.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_FAILURES.has(code)) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  if (error.name === 'TransactionCanceledException') {
    const reasons =
      (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((reason) => UNAVAILABLE_REASONS.has(reason.Code ?? ''));
  }
  return false;
}

/** Builds a table handle; `config` carries the endpoint of DynamoDB Local outside AWS. */
export function createTable(name: string, config: DynamoDBClientConfig = {}): Table {
  const client = new DynamoDBClient({ requestHandler: TABLE_TIMEOUTS, ...config });
  // Outermost, after the client's retries: a store that still does not answer becomes one error
  // every caller knows (a 503 asking to retry), rather than whatever the network said.
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isStoreUnavailable(error)) throw new StoreUnavailableError({ cause: error });
        throw error;
      }
    },
    { step: 'initialize', name: 'storeUnavailable' },
  );
  // The SDK's logger step copies every request and reply through its sensitive-field filter before
  // handing them to a logger that drops them (none is set): a walk of a whole page of items on
  // every call, a tenth of a list request's CPU. Nothing here logs SDK bodies (they hold personal
  // data), so the step goes.
  client.middlewareStack.remove('loggerMiddleware');
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc, name };
}

/** Whether a DynamoDB error is a failed condition (alone or inside a cancelled transaction). */
export function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  if (error.name === 'TransactionCanceledException') {
    const reasons =
      (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
  }
  return false;
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
  if (error.name === 'TransactionCanceledException') {
    const reasons =
      (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((reason) => reason.Code === 'TransactionConflict');
  }
  return false;
}
