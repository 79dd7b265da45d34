import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import type { AuditRecord } from '../../domain/directory/ports';

import type { HealthReads, HealthSettingsRecord, HealthWrites } from '../../domain/health/ports';
import { auditEntryPut } from '../directory/audit';
import { pauseEndUpdate } from '../directory/pause-record';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { healthSettingsKey } from './keys';

/**
 * The health's settings (/admin/settings: the pause threshold the run ends read) and the end of a
 * pause: what the admin's screens write and the runs read, apart from the reads and writes of the
 * counters, so that a function doing only this carries no more (a Lambda bundle is its cold start).
 */
export class HealthSettingsRepository
  implements Pick<HealthReads, 'settings'>, Pick<HealthWrites, 'saveSettings' | 'clearPause'>
{
  constructor(private readonly table: Table) {}

  async settings(): Promise<HealthSettingsRecord> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: healthSettingsKey(), ConsistentRead: true }),
    );
    return {
      pauseAfterFailures: (Item?.pauseAfterFailures as number | undefined) ?? null,
      alertEmail: (Item?.alertEmail as string | null | undefined) ?? null,
      dailyDigest: Item?.dailyDigest === true,
    };
  }

  /** Saves the settings and, in the same transaction, their audit entry (an admin's save). */
  async saveSettings(settings: HealthSettingsRecord, at: string, audit?: AuditRecord): Promise<void> {
    const put = {
      TableName: this.table.name,
      Item: { ...healthSettingsKey(), entity: 'HealthSettings', ...settings, updatedAt: at },
    };
    if (!audit) {
      await this.table.doc.send(new PutCommand(put));
      return;
    }
    await this.table.doc.send(
      new TransactWriteCommand({ TransactItems: [{ Put: put }, auditEntryPut(this.table, audit)] }),
    );
  }

  /** A streak ended while scheduled: the pause record and its paused-list entry go; the streak is the runs'. */
  async clearPause(workflowId: string): Promise<void> {
    // Not applied without a health item: nothing to clear.
    await applied(this.table.doc.send(new UpdateCommand(pauseEndUpdate(this.table, workflowId))));
  }
}
