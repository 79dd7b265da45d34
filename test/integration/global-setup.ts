import type {} from 'vitest';
import type { TestProject } from 'vitest/node';

import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One DynamoDB Local (in memory) for the whole integration run; each test file makes its own table. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}
