import { counterWrites } from '../functions/data/directory/counters';
import { scheduleItem, searchEntryItems, workflowItem } from '../functions/data/directory/workflows';
import type { Table } from '../functions/data/table/table';
import type { WorkflowRecord } from '../functions/domain/directory/ports';
import { counterDeltas } from '../functions/domain/directory/workflow-counts';
import { batchWrite } from './scheduler';

/**
 * A bulk load of new automations written as `WorkflowRepository.create` writes them (the same item
 * builders: workflow, schedule, search entries, counters), but by BatchWriteItem instead of one
 * transaction each: the counters' ADDs are summed in memory and put once at the end, holding what
 * the creations' ADDs would have left. Its owners have no profile (no name in the search text), as
 * `create` finds for an e-mail without one. test/integration/bench/automation-load.test.ts compares
 * it with `create`, item for item.
 */
export class AutomationLoad {
  /** Each counter item's key and its attributes' sums, by key. */
  private readonly counters = new Map<string, { key: Record<string, unknown>; sums: Map<string, number> }>();
  /** Items written so far. */
  items = 0;

  constructor(private readonly table: Table) {}

  /** Writes the automations' own items (several BatchWriteItems in flight) and adds up their counters. */
  async write(records: readonly WorkflowRecord[]): Promise<void> {
    const items = records.flatMap((record) => [
      workflowItem(record),
      scheduleItem(record, record.updatedAt),
      ...searchEntryItems(this.table, record),
    ]);
    for (const record of records) this.count(record);
    await batchWrite(this.table, items);
    this.items += items.length;
  }

  /** Writes the counter items: what the creations' ADDs on absent items would have left. */
  async finish(): Promise<void> {
    const items = [...this.counters.values()].map(({ key, sums }) => ({
      ...key,
      ...Object.fromEntries(sums),
    }));
    await batchWrite(this.table, items);
    this.items += items.length;
  }

  private count(record: WorkflowRecord) {
    for (const write of counterWrites(this.table, counterDeltas(null, record))) {
      const update = write.Update;
      // A folder's counters are written only while the folder exists: a load holds no folders.
      if (!update?.Key || update.ConditionExpression)
        throw new Error('Un chargement en masse ne range aucune automatisation dans un dossier.');
      const id = JSON.stringify(update.Key);
      const counter = this.counters.get(id) ?? { key: update.Key, sums: new Map<string, number>() };
      for (const [placeholder, attribute] of Object.entries(update.ExpressionAttributeNames ?? {})) {
        const value = Number(update.ExpressionAttributeValues?.[placeholder.replace('#', ':')]);
        counter.sums.set(attribute, (counter.sums.get(attribute) ?? 0) + value);
      }
      this.counters.set(id, counter);
    }
  }
}
