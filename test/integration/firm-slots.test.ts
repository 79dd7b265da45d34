import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { FirmSlotRepository } from '../../functions/data/firm-slots';
import { firmSlotsKey } from '../../functions/data/keys';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';
import { uniqueEmail } from '../support/records';

const CAPACITY = 5;

/** A firm's call slots on DynamoDB Local, with other takers and releases played between two calls. */
describe('firm call slots', () => {
  let app: TestApp;

  beforeEach(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await disposeTestApp(app);
  });

  it('takes a slot given back after its read when the free one it read is taken first, instead of refusing', async () => {
    const firm = uniqueEmail('cabinet');
    const now = new Date('2026-11-25T12:00:00.000Z');
    const until = new Date(now.getTime() + 35_000);
    const lease = (holder: string) => ({ holder, until: until.toISOString() });
    // Slots 0 to 3 held by calls in flight, slot 4 free.
    await app.table.doc.send(
      new PutCommand({
        TableName: app.table.name,
        Item: {
          ...firmSlotsKey(firm),
          slot0: lease('a'),
          slot1: lease('b'),
          slot2: lease('c'),
          slot3: lease('d'),
        },
      }),
    );
    // Right after the taker's read: another call takes slot 4, and the call on slot 1 ends.
    let played = false;
    const name = 'other-calls';
    app.table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'GetItemCommand' && !played) {
          played = true;
          await app.table.doc.send(
            new UpdateCommand({
              TableName: app.table.name,
              Key: firmSlotsKey(firm),
              UpdateExpression: 'SET slot4 = :lease REMOVE slot1',
              ExpressionAttributeValues: { ':lease': lease('e') },
            }),
          );
        }
        return result;
      },
      { step: 'initialize', name },
    );
    // The first slot drawn is 0, held.
    vi.spyOn(Math, 'random').mockReturnValue(0);

    try {
      const taken = await new FirmSlotRepository(app.table).take(firm, 'f', now, until, CAPACITY);

      expect(played).toBe(true);
      expect(taken).toEqual({ slot: 1, holder: 'f' });
    } finally {
      app.table.doc.middlewareStack.remove(name);
    }
  });

  it('refuses once every slot is held, and never gives more than the capacity', async () => {
    const firm = uniqueEmail('cabinet');
    const now = new Date('2026-11-25T12:00:00.000Z');
    const until = new Date(now.getTime() + 35_000);
    const slots = new FirmSlotRepository(app.table);

    const taken = await Promise.all(
      Array.from({ length: CAPACITY + 3 }, (_, index) => slots.take(firm, `h${index}`, now, until, CAPACITY)),
    );

    const held = taken.filter((slot) => slot !== null);
    expect(held).toHaveLength(CAPACITY);
    expect(new Set(held.map((slot) => slot?.slot)).size).toBe(CAPACITY);
  });
});
