import { randomUUID } from 'node:crypto';

import {
  type BatchGetCommandOutput,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { getItemsByKey } from '../../../../functions/data/table/batch-get';
import type { Table } from '../../../../functions/data/table/table';
import { applied } from '../../../../functions/data/table/table-errors';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';

/** The table's shared helpers (functions/data), against DynamoDB Local. */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp(inject('dynamoEndpoint'));
});

afterAll(async () => {
  await disposeTestApp(app);
});

/** The read several protected-request and sign-in look-ups share: one BatchGetItem. */
describe('getItemsByKey', () => {
  const putItem = async (value: string) => {
    const key = { PK: `BATCH_TEST#${randomUUID()}`, SK: 'ITEM' };
    await app.table.doc.send(new PutCommand({ TableName: app.table.name, Item: { ...key, value } }));
    return key;
  };

  it('finds each stored item by its key and nothing for a missing key', async () => {
    // Arrange
    const first = await putItem('un');
    const second = await putItem('deux');
    const missing = { PK: `BATCH_TEST#${randomUUID()}`, SK: 'ITEM' };

    // Act
    const found = await getItemsByKey(app.table, [first, missing, second, first]);

    // Assert
    expect(found.get(first)?.value).toBe('un');
    expect(found.get(second)?.value).toBe('deux');
    expect(found.get(missing)).toBeUndefined();
  });

  it('reads again the keys the table left unprocessed (throttling)', async () => {
    // Arrange: the table answers the first call for one key only, as DynamoDB does when throttled.
    const first = await putItem('un');
    const second = await putItem('deux');
    const sent: number[] = [];
    const throttled: Table = {
      name: app.table.name,
      doc: new Proxy(app.table.doc, {
        get(target, property, receiver) {
          if (property !== 'send') return Reflect.get(target, property, receiver);
          return async (command: Parameters<typeof target.send>[0]) => {
            const keys = (command.input as { RequestItems: Record<string, { Keys: unknown[] }> })
              .RequestItems[app.table.name]?.Keys;
            sent.push(keys?.length ?? 0);
            const output = (await target.send(command)) as BatchGetCommandOutput;
            if (sent.length > 1) return output;
            return {
              ...output,
              Responses: { [app.table.name]: [] },
              UnprocessedKeys: { [app.table.name]: { Keys: [first, second] } },
            };
          };
        },
      }),
    };

    // Act
    const found = await getItemsByKey(throttled, [first, second]);

    // Assert
    expect(sent).toEqual([2, 2]);
    expect(found.get(first)?.value).toBe('un');
    expect(found.get(second)?.value).toBe('deux');
  });
});

describe('a conditional write whose failed condition is an outcome (`applied`)', () => {
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
