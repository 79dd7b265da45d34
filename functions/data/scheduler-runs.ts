import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

import { SchedulerRun } from '../../shared/schemas/scheduler';
import { schedulerRunKey } from './keys';
import type { Table } from './table';

type RunKind = 'schedule' | 'manual';

const kindOf = (trigger: SchedulerRun['trigger']): RunKind =>
  trigger === 'schedule' ? 'schedule' : 'manual';

/**
 * The last scheduler run of each kind (the minute schedule, an admin's), so that /admin/settings
 * shows the last result after a reload. One item each, overwritten by every run.
 */
export class SchedulerRunRepository {
  constructor(private readonly table: Table) {}

  async save(run: SchedulerRun): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...schedulerRunKey(kindOf(run.trigger)), entity: 'SchedulerRun', run },
      }),
    );
  }

  async lastRuns(): Promise<{ schedule: SchedulerRun | null; manual: SchedulerRun | null }> {
    const { Responses } = await this.table.doc.send(
      new BatchGetCommand({
        RequestItems: {
          [this.table.name]: {
            Keys: [schedulerRunKey('schedule'), schedulerRunKey('manual')],
            ConsistentRead: true,
          },
        },
      }),
    );
    const items = Responses?.[this.table.name] ?? [];
    const find = (kind: RunKind) => {
      const item = items.find((candidate) => candidate.SK === schedulerRunKey(kind).SK);
      const parsed = SchedulerRun.safeParse(item?.run);
      return parsed.success ? parsed.data : null;
    };
    return { schedule: find('schedule'), manual: find('manual') };
  }
}
