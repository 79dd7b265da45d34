import { randomUUID } from 'node:crypto';

import { type BatchGetCommandOutput, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { getItemsByKey } from '../../functions/data/batch-get';
import type { Table } from '../../functions/data/table';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';

/** The read several protected-request and sign-in look-ups share: one BatchGetItem. */
describe('getItemsByKey', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

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
