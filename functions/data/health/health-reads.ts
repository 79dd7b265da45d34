import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

import { DASHBOARD_FAILING_LISTED } from '../../../shared/constants';
import type {
  FailingRecord,
  HealthReads,
  HealthSettingsRecord,
  HealthSummaryRecord,
  HourCounters,
  LongestStreaks,
} from '../../domain/health/ports';
import { scheduleKey, workflowKey } from '../directory/keys';
import { firmSlotsKey } from '../scheduling/keys';
import { batchGetAll } from '../table/batch-get';
import { currentHourOf, type HourCounterSpec } from '../table/hour-counters';
import { queryPages } from '../table/query-all';
import { readShardedList, type ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import { HealthSettingsRepository } from './health-settings';
import {
  allDeliveriesPartitions,
  failingPartitions,
  HEALTH_HOUR_PREFIX,
  ownerDeliveriesPartition,
  ownerHourCounters,
  workflowHealthKey,
  workflowHourCounters,
} from './keys';

/** The failing set in GSI1: its shards, ordered by streak (`data/health/keys.ts`). */
const FAILING_SET: ShardedList = {
  name: 'failing',
  index: 'GSI1',
  partitions: failingPartitions(),
};

function toFailingRecord(item: Record<string, unknown>): FailingRecord {
  return {
    workflowId: item.workflowId as string,
    workflowName: item.workflowName as string,
    consecutiveFailures: (item.consecutiveFailures as number | undefined) ?? 0,
    lastFailureAt: (item.lastFailureAt as string | undefined) ?? null,
    lastFailureMessage: (item.lastFailureMessage as string | undefined) ?? null,
  };
}

/**
 * A workflow's health from its two items: the streak and the last success as its runs keep them on
 * its schedule item, the failure's details and the pause on its health item. A health item written
 * before the runs kept their state on the schedule item holds the streak and the last success too
 * (`npm run migrate` moves them): they count while the schedule item has none.
 */
export function toSummary(
  workflowId: string,
  health: Record<string, unknown> | undefined,
  schedule: Record<string, unknown> | undefined,
): HealthSummaryRecord {
  const runState = typeof schedule?.consecutiveFailures === 'number' ? schedule : health;
  return {
    workflowId,
    lastSuccessAt: (runState?.lastSuccessAt as string | undefined) ?? null,
    lastSuccessRetried: runState?.lastSuccessRetried === true,
    lastFailureAt: (health?.lastFailureAt as string | undefined) ?? null,
    lastFailureMessage: (health?.lastFailureMessage as string | undefined) ?? null,
    lastFailureStatus: (health?.lastFailureStatus as number | null | undefined) ?? null,
    consecutiveFailures: (runState?.consecutiveFailures as number | undefined) ?? 0,
    pausedAt: (health?.pausedAt as string | undefined) ?? null,
    pauseReason: (health?.pauseReason as string | undefined) ?? null,
  };
}

/**
 * The health as the screens, the alerts and the digest read it. Every read is a GetItem, a
 * BatchGetItem or a Query of one small partition range; the counters of the current hour, kept on
 * the items the runs write anyway, are added to the hours read.
 */
export class HealthReadRepository implements HealthReads {
  constructor(private readonly table: Table) {}

  async summary(workflowId: string): Promise<HealthSummaryRecord> {
    return (
      (await this.summaries([workflowId])).get(workflowId) ?? toSummary(workflowId, undefined, undefined)
    );
  }

  /** The summaries of workflows: each one's health and schedule items, strongly consistent, in BatchGetItems. */
  async summaries(workflowIds: readonly string[]): Promise<Map<string, HealthSummaryRecord>> {
    const items = await batchGetAll(
      this.table,
      workflowIds.flatMap((id) => [workflowHealthKey(id), scheduleKey(id)]),
      { consistent: true },
    );
    const found = new Map(items.map((item) => [`${item.PK}\n${item.SK}`, item]));
    const itemOf = (key: { PK: string; SK: string }) => found.get(`${key.PK}\n${key.SK}`);
    return new Map(
      workflowIds.map((id) => [id, toSummary(id, itemOf(workflowHealthKey(id)), itemOf(scheduleKey(id)))]),
    );
  }

  /** A workflow's hour counters from `fromHour` on, oldest first: its hour items and its current hour. */
  async workflowHours(workflowId: string, fromHour: string): Promise<HourCounters[]> {
    return this.withCurrentHour(
      this.hours(workflowKey(workflowId).PK, fromHour),
      scheduleKey(workflowId),
      workflowHourCounters(workflowId),
      fromHour,
    );
  }

  async ownerHours(ownerEmail: string, fromHour: string): Promise<HourCounters[]> {
    return this.withCurrentHour(
      this.hours(ownerDeliveriesPartition(ownerEmail), fromHour),
      firmSlotsKey(ownerEmail),
      ownerHourCounters(ownerEmail),
      fromHour,
    );
  }

  /**
   * Everyone's hour counters from `fromHour` on: one Query per shard, all at once. An hour comes
   * once per shard it has counts in; their sum is the hour's figure (exact: each count went to one
   * shard only).
   */
  async allDeliveryHours(fromHour: string): Promise<HourCounters[]> {
    const shards = await Promise.all(
      allDeliveriesPartitions().map((partition) => this.hours(partition, fromHour)),
    );
    return shards.flat();
  }

  /**
   * The longest streaks of the failing set and its size. In an outage every automation of the
   * platform is in it: the streaks are read from the end of each shard, about
   * `DASHBOARD_FAILING_LISTED` items in all (functions/data/table/sharded-list.ts), and the size is
   * counted by DynamoDB (Select COUNT: no item comes back), so that neither the reply nor the
   * function's memory grows with the set.
   */
  async longestStreaks(): Promise<LongestStreaks> {
    const [{ items }, counts] = await Promise.all([
      readShardedList(this.table, FAILING_SET, { order: 'newest first', limit: DASHBOARD_FAILING_LISTED }),
      Promise.all(FAILING_SET.partitions.map((partition) => this.countIndexPartition(partition))),
    ]);
    return {
      longest: items.map(toFailingRecord),
      total: counts.reduce((sum, count) => sum + count, 0),
    };
  }

  settings(): Promise<HealthSettingsRecord> {
    return new HealthSettingsRepository(this.table).settings();
  }

  private async countIndexPartition(partition: string): Promise<number> {
    let count = 0;
    for await (const page of queryPages(this.table, {
      IndexName: FAILING_SET.index,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      Select: 'COUNT',
    })) {
      count += page.Count ?? 0;
    }
    return count;
  }

  /** Hours read, and the counters of the current hour an item holds (read at once), added to its hour. */
  private async withCurrentHour(
    reading: Promise<HourCounters[]>,
    key: { PK: string; SK: string },
    spec: HourCounterSpec,
    fromHour: string,
  ): Promise<HourCounters[]> {
    const [hours, { Item }] = await Promise.all([
      reading,
      this.table.doc.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true })),
    ]);
    const current = currentHourOf(spec, Item);
    if (!current || current.hour < fromHour) return hours;
    return [...hours, { hour: current.hour, counts: current.counts }].sort((a, b) =>
      a.hour.localeCompare(b.hour),
    );
  }

  private async hours(partition: string, fromHour: string): Promise<HourCounters[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': partition,
            ':from': `${HEALTH_HOUR_PREFIX}${fromHour}`,
            ':to': `${HEALTH_HOUR_PREFIX}~`,
          },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items.map((item) => {
      const counts: Record<string, number> = {};
      for (const [name, value] of Object.entries(item)) {
        if (typeof value === 'number' && name !== 'expiresAt') counts[name] = value;
      }
      return { hour: (item.SK as string).slice(HEALTH_HOUR_PREFIX.length), counts };
    });
  }
}
