import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

import { WORKFLOW_TYPES } from '../../../shared/constants';
import type { DirectoryCounters } from '../../domain/directory/ports';
import {
  type CounterDelta,
  type CounterScope,
  NO_WORKFLOWS,
  type WorkflowCounts,
} from '../../domain/directory/workflow-counts';
import { batchGetAll } from '../table/batch-get';
import type { Table } from '../table/table';
import {
  allWorkflowCountersKeys,
  counterAttribute,
  FOLDER_COUNTER_KEY,
  folderKey,
  LAWYER_COUNTER_KEY,
  ownerCountersKey,
  workflowCountersKey,
} from './keys';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function keyOf(scope: CounterScope) {
  if (scope.kind === 'all') return workflowCountersKey(scope.workflowId);
  if (scope.kind === 'owner') return ownerCountersKey(scope.email);
  return folderKey(scope.folderId);
}

/** An ADD of numbers on one item, as an Update of a transaction. */
function addTo(
  table: Table,
  key: Record<string, string>,
  add: Readonly<Record<string, number>>,
  condition?: string,
): TransactItem {
  const entries = Object.entries(add);
  return {
    Update: {
      TableName: table.name,
      Key: key,
      UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:c${index}`, value])),
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  };
}

/**
 * The writes of a change's counter deltas, for the change's own transaction. A folder's counters
 * are on the folder item, written only while it exists: a workflow never lands in a folder
 * deleted meanwhile (the transaction is refused).
 */
export function counterWrites(table: Table, deltas: readonly CounterDelta[]): TransactItem[] {
  return deltas.map((delta) =>
    addTo(
      table,
      keyOf(delta.scope),
      Object.fromEntries(Object.entries(delta.add).map(([field, value]) => [counterAttribute(field), value])),
      delta.scope.kind === 'folder' ? 'attribute_exists(PK)' : undefined,
    ),
  );
}

/** One more (or one less) lawyer, in his creation's (or deletion's) transaction. */
export const lawyerCounterWrite = (table: Table, add: 1 | -1) =>
  addTo(table, LAWYER_COUNTER_KEY, { [counterAttribute('total')]: add });

/** One more (or one less) folder. */
export const folderCounterWrite = (table: Table, add: 1 | -1) =>
  addTo(table, FOLDER_COUNTER_KEY, { [counterAttribute('total')]: add });

const numberOf = (item: Record<string, unknown> | undefined, field: string) =>
  Number(item?.[counterAttribute(field)] ?? 0);

/** The counts an item holds (a counter item, a folder item); none yet reads as zeros. */
export function countsOf(items: readonly (Record<string, unknown> | undefined)[]): WorkflowCounts {
  const sum = (field: string) => items.reduce((total, item) => total + numberOf(item, field), 0);
  return {
    total: sum('total'),
    active: sum('active'),
    scheduled: sum('scheduled'),
    running: sum('running'),
    byType: Object.fromEntries(WORKFLOW_TYPES.map((type) => [type, sum(type)])) as WorkflowCounts['byType'],
  };
}

/** What the counters of the directory hold. */
export class CounterRepository implements DirectoryCounters {
  constructor(private readonly table: Table) {}

  /** Everyone's workflow counts, and how many lawyers and folders there are: one BatchGetItem. */
  async directory(): Promise<{ workflows: WorkflowCounts; lawyers: number; folders: number }> {
    const items = await batchGetAll(this.table, [
      ...allWorkflowCountersKeys(),
      LAWYER_COUNTER_KEY,
      FOLDER_COUNTER_KEY,
    ]);
    const shards = items.filter((item) => String(item.PK).startsWith('COUNTS#WORKFLOWS#'));
    const single = (key: { PK: string }) => items.find((item) => item.PK === key.PK);
    return {
      workflows: shards.length > 0 ? countsOf(shards) : NO_WORKFLOWS,
      lawyers: numberOf(single(LAWYER_COUNTER_KEY), 'total'),
      folders: numberOf(single(FOLDER_COUNTER_KEY), 'total'),
    };
  }

  /** The counts of one owner e-mail's workflows. */
  async ofOwner(email: string): Promise<WorkflowCounts> {
    const [item] = await batchGetAll(this.table, [ownerCountersKey(email)]);
    return countsOf([item]);
  }
}
