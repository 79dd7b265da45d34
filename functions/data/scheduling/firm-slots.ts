import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EndedCall, FirmSlot, FirmSlots, SlotLease, SlotRefusal } from '../../domain/scheduling/ports';
import { type HourCount, type HourCounterSpec, updateCounting } from '../table/hour-counters';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { firmSlotsKey } from './keys';

const slotAttribute = (slot: number) => `slot${slot}`;

/**
 * Where a call's counts go in its lawyer's hour, when his firm's slots item holds that hour's
 * counters (the health's choice, wired in runtime); null for a call that counts nowhere.
 */
export type OwnerHourCounts = (
  firm: string,
  call: EndedCall,
) => { readonly spec: HourCounterSpec; readonly count: HourCount } | null;

/**
 * The calls of one firm in flight, at most `capacity`: one item per firm, a slot attribute per call
 * holding a lease that expires by itself if its worker dies. The same write refuses a second slot for
 * a run already being called, so two copies of a message are not called at once.
 */
export class FirmSlotRepository implements FirmSlots {
  constructor(
    private readonly table: Table,
    private readonly ownerCounts?: OwnerHourCounts,
  ) {}

  /**
   * Takes a slot for `lease`, or says why not: one conditional write on a random slot first (the common
   * case), then each free or expired slot of a fresh read; `full` only once a read finds them all held.
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

  /**
   * Gives a slot back, unless its lease expired and another call took it since; with the call that
   * held it, its counts are added to the lawyer's hour in the same write (the item holds them), so
   * a call's end costs the firm's item one write, not two.
   */
  async release(firm: string, taken: FirmSlot, ended?: EndedCall): Promise<boolean> {
    const slot = slotAttribute(taken.slot);
    const condition = {
      expression: '#slot.#holder = :holder',
      names: { '#slot': slot, '#holder': 'holder' },
      values: { ':holder': taken.holder },
    };
    const counting = ended ? this.ownerCounts?.(firm, ended) : null;
    if (counting) {
      const written = await updateCounting(
        this.table,
        firmSlotsKey(firm),
        { remove: [slot], condition },
        counting.spec,
        counting.count,
      );
      return written.applied;
    }
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: firmSlotsKey(firm),
          UpdateExpression: 'REMOVE #slot',
          ConditionExpression: condition.expression,
          ExpressionAttributeNames: condition.names,
          ExpressionAttributeValues: condition.values,
        }),
      ),
    );
    return false;
  }
}
