import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { HealthReadRepository } from '../../../../functions/data/health/health-reads';
import { FirmSlotRepository } from '../../../../functions/data/scheduling/firm-slots';
import { firmSlotsKey } from '../../../../functions/data/scheduling/keys';
import type { EndedCall } from '../../../../functions/domain/scheduling/ports';
import { firmSlotsOf } from '../../../../functions/runtime/services/health';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { dynamoCallsOf } from '../../../support/dynamodb-calls';
import { uniqueEmail } from '../../../support/records';

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
      const taken = await new FirmSlotRepository(app.table).take(
        firm,
        { holder: 'f', dispatch: 'run-f', until },
        now,
        CAPACITY,
      );

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
      Array.from({ length: CAPACITY + 3 }, (_, index) =>
        slots.take(firm, { holder: `h${index}`, dispatch: `run-${index}`, until }, now, CAPACITY),
      ),
    );

    const held = taken.flatMap((slot) => ('refused' in slot ? [] : [slot.slot]));
    expect(held).toHaveLength(CAPACITY);
    expect(new Set(held).size).toBe(CAPACITY);
    expect(taken.filter((slot) => 'refused' in slot)).toEqual([
      { refused: 'full' },
      { refused: 'full' },
      { refused: 'full' },
    ]);
  });

  it('gives one run one slot at a time: another delivery of it is refused while the lease lives, not after', async () => {
    const firm = uniqueEmail('cabinet');
    const now = new Date('2026-11-25T12:00:00.000Z');
    const until = new Date(now.getTime() + 35_000);
    const slots = new FirmSlotRepository(app.table);

    const copies = await Promise.all(
      ['m1', 'm2', 'm3'].map((holder) =>
        slots.take(firm, { holder, dispatch: 'w1:due', until }, now, CAPACITY),
      ),
    );
    const holders = copies.flatMap((slot) => ('refused' in slot ? [] : [slot.holder]));
    expect(holders).toHaveLength(1);
    expect(copies.filter((slot) => 'refused' in slot)).toEqual([
      { refused: 'in-flight', holder: holders[0] },
      { refused: 'in-flight', holder: holders[0] },
    ]);
    // Another run of the firm still gets a slot beside it.
    expect(
      await slots.take(firm, { holder: 'm4', dispatch: 'w1:next', until }, now, CAPACITY),
    ).toHaveProperty('slot');
    // Once the lease has expired (its worker died), the run may be called again.
    expect(
      await slots.take(firm, { holder: 'm5', dispatch: 'w1:due', until }, until, CAPACITY),
    ).toHaveProperty('slot');
  });

  it("gives a slot back and counts its call in the lawyer's hour in the same write, and counts nothing when another holds the slot", async () => {
    const firm = uniqueEmail('cabinet');
    const now = new Date('2026-11-25T12:00:00.000Z');
    const until = new Date(now.getTime() + 35_000);
    const slots = firmSlotsOf(app.table);
    const call = (outcome: EndedCall['outcome']): EndedCall => ({
      trigger: 'schedule',
      outcome,
      attempt: 1,
      startedAt: '2026-11-25T12:00:01.000Z',
      durationMs: 200,
      dueAt: '2026-11-25T12:00:00.000Z',
      httpStatus: outcome === 'succeeded' ? 200 : 500,
      message: outcome,
    });
    // Slots drawn: 0, then 1, then 1 again once its lease has expired, then 0 once given back.
    vi.spyOn(Math, 'random')
      .mockReturnValueOnce(0)
      .mockReturnValueOnce(0.2)
      .mockReturnValueOnce(0.2)
      .mockReturnValueOnce(0);
    const first = await slots.take(firm, { holder: 'm1', dispatch: 'run-1', until }, now, CAPACITY);
    const second = await slots.take(firm, { holder: 'm2', dispatch: 'run-2', until }, now, CAPACITY);
    if ('refused' in first || 'refused' in second) throw new Error('slots refused');

    let counted: boolean | undefined;
    const calls = await dynamoCallsOf(app.table, async () => {
      counted = await slots.release(firm, first, call('succeeded'));
    });
    // The second call's lease expired and another message took its slot: not its to give back.
    await slots.take(
      firm,
      { holder: 'm3', dispatch: 'run-3', until: new Date(until.getTime() + 60_000) },
      until,
      CAPACITY,
    );
    const stale = await slots.release(firm, second, call('failed'));

    expect(calls.commands).toEqual(['UpdateItemCommand']);
    expect([counted, stale]).toEqual([true, false]);
    const hours = await new HealthReadRepository(app.table).ownerHours(firm, '2026-11-25T00');
    expect(hours.map(({ hour, counts }) => [hour, counts.succeeded, counts.failed])).toEqual([
      ['2026-11-25T12', 1, undefined],
    ]);
    // The slot given back is free again; the one another holds is still held.
    expect(await slots.take(firm, { holder: 'm4', dispatch: 'run-1', until }, now, CAPACITY)).toHaveProperty(
      'slot',
    );
  });
});
