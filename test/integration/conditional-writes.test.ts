import { randomUUID } from 'node:crypto';

import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { applied } from '../../functions/data/table';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';

describe('a conditional write (`applied`), against DynamoDB Local', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });

  const putOnce = (PK: string) =>
    app.table.doc.send(
      new PutCommand({
        TableName: app.table.name,
        Item: { PK, SK: 'TEST' },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );

  it('says whether it applied: true the first time, false once its condition fails', async () => {
    const PK = `TEST#${randomUUID()}`;

    expect(await applied(putOnce(PK))).toBe(true);
    expect(await applied(putOnce(PK))).toBe(false);
  });

  it('reads a transaction cancelled by a failed condition as not applied', async () => {
    const PK = `TEST#${randomUUID()}`;
    await putOnce(PK);

    const transaction = app.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: app.table.name, Item: { PK: `${PK}#other`, SK: 'TEST' } } },
          {
            Put: {
              TableName: app.table.name,
              Item: { PK, SK: 'TEST' },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );

    expect(await applied(transaction)).toBe(false);
  });

  it('throws any other error: a malformed write is not a lost race', async () => {
    const malformed = app.table.doc.send(
      new UpdateCommand({
        TableName: app.table.name,
        Key: { PK: `TEST#${randomUUID()}`, SK: 'TEST' },
        UpdateExpression: 'SET #missing = :value',
        ExpressionAttributeValues: { ':value': 1 },
      }),
    );

    await expect(applied(malformed)).rejects.toMatchObject({ name: 'ValidationException' });
  });
});
