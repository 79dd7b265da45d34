import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import { firmSlotsKey } from './keys';
import { applied, type Table } from './table';

/** A slot taken: which one, and the holder that must give it back. */
export interface FirmSlot {
  readonly slot: number;
  readonly holder: string;
}

const slotAttribute = (slot: number) => `slot${slot}`;

/**
 * The calls of one firm in flight, at most `capacity` at once: one item per firm whose attribute
 * `slot<n>` holds `{ holder, until }` while a call runs. A worker takes a free or expired slot
 * with a conditional write and gives it back when the call ends; a worker that died leaves a
 * lease that expires by itself at `until`. Contention is between the workers of one firm only
 * (a handful at once), never across firms: each firm's item is its own partition.
 */
export class FirmSlotRepository {
  constructor(private readonly table: Table) {}

  /**
   * Takes a slot for `holder` until `until`, or null when all `capacity` are held. First one slot
   * drawn at random, by a conditional write alone (a firm with a free slot, the common case, costs
   * one write); when that one is held, the item is read and each free or expired slot tried. A try
   * lost to another taker, or a slot given back after the read, shows at the next read: null only
   * once a read finds every slot held, so a run is not sent back (seconds late) while its firm has
   * a slot free. Each lost try is a slot another call took, so the rounds are few.
   */
  async take(
    firm: string,
    holder: string,
    now: Date,
    until: Date,
    capacity: number,
  ): Promise<FirmSlot | null> {
    const first = Math.floor(Math.random() * capacity);
    if (await this.tryTake(firm, first, holder, now, until)) return { slot: first, holder };
    for (let round = 0; round <= capacity; round++) {
      const { Item = {} } = await this.table.doc.send(
        new GetCommand({ TableName: this.table.name, Key: firmSlotsKey(firm), ConsistentRead: true }),
      );
      const free = Array.from({ length: capacity }, (_, slot) => slot).filter((slot) => {
        const lease = Item[slotAttribute(slot)] as { until?: string } | undefined;
        return !lease?.until || lease.until <= now.toISOString();
      });
      if (free.length === 0) return null;
      for (const slot of free) {
        if (await this.tryTake(firm, slot, holder, now, until)) return { slot, holder };
      }
    }
    return null;
  }

  private async tryTake(firm: string, slot: number, holder: string, now: Date, until: Date) {
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: firmSlotsKey(firm),
          UpdateExpression: 'SET #slot = :lease',
          ConditionExpression: 'attribute_not_exists(#slot) OR #slot.#until <= :now',
          ExpressionAttributeNames: { '#slot': slotAttribute(slot), '#until': 'until' },
          ExpressionAttributeValues: {
            ':lease': { holder, until: until.toISOString() },
            ':now': now.toISOString(),
          },
        }),
      ),
    );
  }

  /** Gives a slot back, unless its lease expired and another call took it since. */
  async release(firm: string, taken: FirmSlot): Promise<void> {
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: firmSlotsKey(firm),
          UpdateExpression: 'REMOVE #slot',
          ConditionExpression: '#slot.#holder = :holder',
          ExpressionAttributeNames: { '#slot': slotAttribute(taken.slot), '#holder': 'holder' },
          ExpressionAttributeValues: { ':holder': taken.holder },
        }),
      ),
    );
  }
}
