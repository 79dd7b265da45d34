import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

import { StoreUnavailableError } from '../../domain/core/errors';
import { isStoreUnavailable } from './table-errors';

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
