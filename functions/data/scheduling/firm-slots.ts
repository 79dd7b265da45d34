import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FirmSlot, FirmSlots, SlotLease, SlotRefusal } from '../../domain/scheduling/ports';
import { applied, type Table } from '../table/table';
import { firmSlotsKey } from './keys';

const slotAttribute = (slot: number) => `slot${slot}`;

/**
 * The calls of one firm in flight, at most `capacity` at once: one item per firm whose attribute
 * `slot<n>` holds `{ holder, dispatch, until }` while a call runs. A worker takes a free or expired
 * slot with a conditional write and gives it back when the call ends; a worker that died leaves a
 * lease that expires by itself at `until`. Contention is between the workers of one firm only
 * (a handful at once), never across firms: each firm's item is its own partition.
 *
 * The same write keeps one run from being called twice at once: it is refused while another slot
 * holds the same dispatch. SQS may deliver a message twice, and two ticks may both queue a slot
 * before either claims it; the done marker stops a copy that comes after the call is recorded, the
 * lease one that comes during it. A copy whose marker read comes just before the call's end is
 * recorded and whose take comes just after its slot is given back still passes: the worker sends
 * the two at once, and ordering them would cost every run a round trip.
 */
export class FirmSlotRepository implements FirmSlots {
  constructor(private readonly table: Table) {}

  /**
   * Takes a slot for `lease`, or says why not. First one slot drawn at random, by a conditional
   * write alone (a firm with a free slot, the common case, costs one write); when that write is
   * refused, the item is read and each free or expired slot tried. A try lost to another taker, or
   * a slot given back after the read, shows at the next read: `full` only once a read finds every
   * slot held, so a run is not sent back (seconds late) while its firm has a slot free. Each lost
   * try is a slot another call took, so the rounds are few.
   */
  async take(firm: string, lease: SlotLease, now: Date, capacity: number): Promise<FirmSlot | SlotRefusal> {
    const taken = { slot: Math.floor(Math.random() * capacity), holder: lease.holder };
    if (await this.tryTake(firm, taken.slot, lease, now, capacity)) return taken;
    for (let round = 0; round <= capacity; round++) {
      const { Item = {} } = await this.table.doc.send(
        new GetCommand({ TableName: this.table.name, Key: firmSlotsKey(firm), ConsistentRead: true }),
      );
      const leases = Array.from(
        { length: capacity },
        (_, slot) => Item[slotAttribute(slot)] as Partial<Record<keyof SlotLease, string>> | undefined,
      );
      const live = (held: (typeof leases)[number]) =>
        held?.until !== undefined && held.until > now.toISOString();
      const sameRun = leases.find((held) => live(held) && held?.dispatch === lease.dispatch);
      if (sameRun) return { refused: 'in-flight', holder: sameRun.holder ?? '' };
      const free = leases.flatMap((held, slot) => (live(held) ? [] : [slot]));
      if (free.length === 0) return { refused: 'full' };
      for (const slot of free) {
        if (await this.tryTake(firm, slot, lease, now, capacity)) return { slot, holder: lease.holder };
      }
    }
    return { refused: 'full' };
  }

  /** Takes `slot` if it is free or expired and no live slot holds the same run. */
  private async tryTake(firm: string, slot: number, lease: SlotLease, now: Date, capacity: number) {
    const names: Record<string, string> = { '#until': 'until', '#dispatch': 'dispatch' };
    const others = Array.from({ length: capacity }, (_, index) => {
      names[`#s${index}`] = slotAttribute(index);
      return `NOT (#s${index}.#dispatch = :dispatch AND #s${index}.#until > :now)`;
    });
    return applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: firmSlotsKey(firm),
          UpdateExpression: `SET #s${slot} = :lease`,
          ConditionExpression: `(attribute_not_exists(#s${slot}) OR #s${slot}.#until <= :now) AND ${others.join(' AND ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':lease': { holder: lease.holder, dispatch: lease.dispatch, until: lease.until.toISOString() },
            ':now': now.toISOString(),
            ':dispatch': lease.dispatch,
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
