import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import type { AuditRecord } from '../../domain/directory/ports';
import type {
  FailingRecord,
  HealthSettingsRecord,
  HealthWrites,
  HourCount,
  RunEnd,
  RunEndResult,
} from '../../domain/health/ports';
import { failingWorkflowKey, scheduleKey } from '../directory/keys';
import { firmSlotsKey } from '../scheduling/keys';
import { type UpdateParts, updateCounting, updateExpressionOf } from '../table/hour-counters';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { HealthSettingsRepository } from './health-settings';
import {
  allDeliveriesPartition,
  deliveryHourKey,
  failingIndexKeys,
  healthAlertKey,
  healthDigestKey,
  ownerHourCounters,
  workflowHealthKey,
  workflowHourCounters,
} from './keys';

/** How long the hour counters are kept: the 7-day window and a day to spare. */
const HOUR_COUNTERS_TTL_SECONDS = 8 * 86_400;
/** A failure's details outlive 30 days without a failure only as long as the history does. */
const SUMMARY_TTL_SECONDS = 30 * 86_400;
/** An alert or digest claim only has to last its day. */
const CLAIM_TTL_SECONDS = 2 * 86_400;

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** The failing set's item of a record: its key in the workflow's partition and its GSI1 keys. */
export function failingItem(record: FailingRecord): Record<string, unknown> {
  return {
    ...failingWorkflowKey(record.workflowId),
    ...failingIndexKeys(record.workflowId, record.consecutiveFailures, record.lastFailureAt),
    entity: 'FailingWorkflow',
    ...record,
  };
}

/**
 * Raises a workflow's failure streak (`FailureStreaks`), on the schedule item where the runs' ends
 * keep it: only upwards, conditionally. A function, so that the bundles of the calls do not carry it.
 */
export function raiseFailures(table: Table, workflowId: string, failures: number): Promise<boolean> {
  return applied(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: scheduleKey(workflowId),
        UpdateExpression: 'SET consecutiveFailures = :failures',
        ConditionExpression:
          'attribute_exists(PK) AND (attribute_not_exists(consecutiveFailures) OR consecutiveFailures < :failures)',
        ExpressionAttributeValues: { ':failures': failures },
      }),
    ),
  );
}

/**
 * The health as runs end, kept as they end and never recomputed from the history.
 *
 * - A run's end is one write of the workflow's schedule item (`recordRunEnd`): its last run, its
 *   streak (`SET consecutiveFailures = 0` on a success, atomic `ADD 1` on a failure, so two ends at
 *   once both count) with the last success, and its counts in the current hour; the schedule item is
 *   written at each end anyway, and the due index projects none of these.
 * - A failure's details, the pause and the failing set are written only when a run fails or a
 *   streak ends: most runs succeed on healthy workflows and write none of them.
 * - Everyone's counters are added once per batch (`addToEveryonesHour`), a lawyer's with his firm's
 *   call slots given back (`data/scheduling/firm-slots.ts`), or here for a call that held none.
 */
export class HealthWriteRepository implements HealthWrites {
  constructor(private readonly table: Table) {}

  async recordRunEnd(end: RunEnd): Promise<RunEndResult> {
    const set: Record<string, unknown> = end.setsLastRun ? { cronLastRun: end.startedAt } : {};
    if (end.streak === 'success') {
      Object.assign(set, {
        lastSuccessAt: end.startedAt,
        lastSuccessRetried: end.retried,
        consecutiveFailures: 0,
      });
    }
    const parts: UpdateParts = {
      set,
      ...(end.streak === 'failure' ? { add: { consecutiveFailures: 1 } } : {}),
      condition: { expression: 'attribute_exists(PK)' },
    };
    const key = scheduleKey(end.workflowId);
    let before: Record<string, unknown> | undefined;
    if (end.count) {
      const written = await updateCounting(
        this.table,
        key,
        parts,
        workflowHourCounters(end.workflowId),
        end.count,
        'UPDATED_OLD',
      );
      if (!written.applied) return { exists: false, streakBefore: 0, streakAfter: 0 };
      before = written.attributes;
    } else if (Object.keys(set).length > 0 || parts.add) {
      try {
        ({ Attributes: before } = await this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: key,
            ...updateExpressionOf(parts),
            ReturnValues: 'UPDATED_OLD',
          }),
        ));
      } catch (error) {
        if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
          return { exists: false, streakBefore: 0, streakAfter: 0 };
        }
        throw error;
      }
    }
    const streakBefore = (before?.consecutiveFailures as number | undefined) ?? 0;
    const streakAfter =
      end.streak === 'success' ? 0 : end.streak === 'failure' ? streakBefore + 1 : streakBefore;
    return { exists: true, streakBefore, streakAfter };
  }

  async recordFailure(
    workflowId: string,
    failure: { readonly at: string; readonly message: string; readonly httpStatus: number | null },
  ): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: workflowHealthKey(workflowId),
        UpdateExpression:
          'SET entity = :entity, workflowId = :id, lastFailureAt = :at, lastFailureMessage = :message, lastFailureStatus = :status, expiresAt = :expires',
        ExpressionAttributeValues: {
          ':entity': 'WorkflowHealth',
          ':id': workflowId,
          ':at': failure.at,
          ':message': failure.message,
          ':status': failure.httpStatus,
          ':expires': epochSeconds(new Date(failure.at)) + SUMMARY_TTL_SECONDS,
        },
      }),
    );
  }

  clearPause(workflowId: string): Promise<void> {
    return new HealthSettingsRepository(this.table).clearPause(workflowId);
  }

  /** Puts a workflow in the failing set (or updates its line and its place in the streak order). */
  async markFailing(record: FailingRecord): Promise<void> {
    await this.table.doc.send(new PutCommand({ TableName: this.table.name, Item: failingItem(record) }));
  }

  async clearFailing(workflowId: string): Promise<void> {
    await this.table.doc.send(
      new DeleteCommand({ TableName: this.table.name, Key: failingWorkflowKey(workflowId) }),
    );
  }

  async addToEveryonesHour(spread: string, count: HourCount): Promise<void> {
    const increments = Object.fromEntries(
      Object.entries(count.increments).filter(([, amount]) => amount !== 0),
    );
    if (Object.keys(increments).length === 0) return;
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: deliveryHourKey(allDeliveriesPartition(spread), count.hour),
        ...updateExpressionOf({
          set: {
            entity: 'HealthHour',
            expiresAt: epochSeconds(new Date(`${count.hour}:00:00.000Z`)) + HOUR_COUNTERS_TTL_SECONDS,
          },
          add: increments,
        }),
      }),
    );
  }

  async addToOwnerHour(ownerEmail: string, count: HourCount): Promise<void> {
    await updateCounting(this.table, firmSlotsKey(ownerEmail), {}, ownerHourCounters(ownerEmail), count);
  }

  saveSettings(settings: HealthSettingsRecord, at: string, audit?: AuditRecord): Promise<void> {
    return new HealthSettingsRepository(this.table).saveSettings(settings, at, audit);
  }

  async claimAlert(workflowId: string, day: string, at: Date): Promise<boolean> {
    return this.claim(healthAlertKey(workflowId, day), at);
  }

  async claimDigest(day: string, at: Date): Promise<boolean> {
    return this.claim(healthDigestKey(day), at);
  }

  private async claim(key: { PK: string; SK: string }, at: Date): Promise<boolean> {
    return applied(
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...key,
            entity: 'HealthClaim',
            claimedAt: at.toISOString(),
            expiresAt: epochSeconds(at) + CLAIM_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  }
}
