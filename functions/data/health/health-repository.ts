import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { DASHBOARD_FAILING_LISTED } from '../../../shared/constants';
import type {
  FailingRecord,
  HealthRecords,
  HealthSettingsRecord,
  HealthSummaryRecord,
  HourCounters,
  HourIncrements,
  LongestStreaks,
} from '../../domain/health/ports';
import { failingWorkflowKey, workflowKey } from '../directory/keys';
import { queryPages } from '../table/query-all';
import { readShardedList, type ShardedList } from '../table/sharded-list';
import { applied, type Table } from '../table/table';
import {
  allDeliveriesPartition,
  allDeliveriesPartitions,
  deliveryHourKey,
  failingIndexKeys,
  failingPartitions,
  HEALTH_HOUR_PREFIX,
  healthAlertKey,
  healthDigestKey,
  healthSettingsKey,
  ownerDeliveriesPartition,
  workflowHealthHourKey,
  workflowHealthKey,
} from './keys';

/** How long the hour counters are kept: the 7-day window and a day to spare. */
const HOUR_COUNTERS_TTL_SECONDS = 8 * 86_400;
/** A workflow's health summary outlives 30 days without a run only as long as its history does. */
const SUMMARY_TTL_SECONDS = 30 * 86_400;
/** An alert or digest claim only has to last its day. */
const CLAIM_TTL_SECONDS = 2 * 86_400;

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

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

/** The failing set's item of a record: its key in the workflow's partition and its GSI1 keys. */
export function failingItem(record: FailingRecord): Record<string, unknown> {
  return {
    ...failingWorkflowKey(record.workflowId),
    ...failingIndexKeys(record.workflowId, record.consecutiveFailures, record.lastFailureAt),
    entity: 'FailingWorkflow',
    ...record,
  };
}

const NUMBER_ATTRIBUTE = /^[a-z][A-Za-z0-9]*$/;

function toSummary(workflowId: string, item: Record<string, unknown> | undefined): HealthSummaryRecord {
  return {
    workflowId,
    lastSuccessAt: (item?.lastSuccessAt as string | undefined) ?? null,
    lastSuccessRetried: item?.lastSuccessRetried === true,
    lastFailureAt: (item?.lastFailureAt as string | undefined) ?? null,
    lastFailureMessage: (item?.lastFailureMessage as string | undefined) ?? null,
    lastFailureStatus: (item?.lastFailureStatus as number | null | undefined) ?? null,
    consecutiveFailures: (item?.consecutiveFailures as number | undefined) ?? 0,
    pausedAt: (item?.pausedAt as string | undefined) ?? null,
    pauseReason: (item?.pauseReason as string | undefined) ?? null,
  };
}

/**
 * Automation health, kept as runs end: summaries, hourly counters added atomically so concurrent
 * workers lose no count, the failing set, the settings, and the claims that send an e-mail once.
 */
export class HealthRepository implements HealthRecords {
  constructor(private readonly table: Table) {}

  /**
   * A run ended in success: the failure streak ends. The pause record goes too when the workflow
   * is scheduled again (a manual run while paused leaves the pause to 'Reprendre'). Returns the
   * streak it ended (0 when there was none), so that the failing set is written only then.
   */
  async recordSuccess(
    workflowId: string,
    at: string,
    retried: boolean,
    clearPause: boolean,
  ): Promise<{ readonly endedStreak: number }> {
    const { Attributes } = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: workflowHealthKey(workflowId),
        UpdateExpression: `SET entity = :entity, workflowId = :id, lastSuccessAt = :at, lastSuccessRetried = :retried, consecutiveFailures = :zero, expiresAt = :expires${
          clearPause ? ' REMOVE pausedAt, pauseReason' : ''
        }`,
        ExpressionAttributeValues: {
          ':entity': 'WorkflowHealth',
          ':id': workflowId,
          ':at': at,
          ':retried': retried,
          ':zero': 0,
          ':expires': epochSeconds(new Date(at)) + SUMMARY_TTL_SECONDS,
        },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return { endedStreak: (Attributes?.consecutiveFailures as number | undefined) ?? 0 };
  }

  /**
   * A run ended in failure: one more in the streak, atomically (`ADD`), so that two runs ending at
   * once both count. Returns the summary as it now is.
   */
  async recordFailure(
    workflowId: string,
    failure: { readonly at: string; readonly message: string; readonly httpStatus: number | null },
  ): Promise<HealthSummaryRecord> {
    const { Attributes } = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: workflowHealthKey(workflowId),
        UpdateExpression:
          'SET entity = :entity, workflowId = :id, lastFailureAt = :at, lastFailureMessage = :message, lastFailureStatus = :status, expiresAt = :expires ADD consecutiveFailures :one',
        ExpressionAttributeValues: {
          ':entity': 'WorkflowHealth',
          ':id': workflowId,
          ':at': failure.at,
          ':message': failure.message,
          ':status': failure.httpStatus,
          ':one': 1,
          ':expires': epochSeconds(new Date(failure.at)) + SUMMARY_TTL_SECONDS,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toSummary(workflowId, Attributes);
  }

  /** Records the automatic pause (after the scheduling switch was turned off). */
  async recordPause(workflowId: string, at: string, reason: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: workflowHealthKey(workflowId),
        UpdateExpression: 'SET pausedAt = :at, pauseReason = :reason',
        ExpressionAttributeValues: { ':at': at, ':reason': reason },
      }),
    );
  }

  /** 'Reprendre': the pause record goes; the failure streak stays until a success ends it. */
  async clearPause(workflowId: string): Promise<void> {
    // Not applied without a summary: nothing to clear.
    await applied(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: workflowHealthKey(workflowId),
          UpdateExpression: 'REMOVE pausedAt, pauseReason',
          ConditionExpression: 'attribute_exists(PK)',
        }),
      ),
    );
  }

  async summary(workflowId: string): Promise<HealthSummaryRecord> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: workflowHealthKey(workflowId),
        ConsistentRead: true,
      }),
    );
    return toSummary(workflowId, Item);
  }

  /** The summaries of up to 100 workflows, in one BatchGetItem (and its unprocessed keys). */
  async summaries(workflowIds: readonly string[]): Promise<Map<string, HealthSummaryRecord>> {
    const found = new Map<string, HealthSummaryRecord>();
    for (let start = 0; start < workflowIds.length; start += 100) {
      let keys: Record<string, unknown>[] = workflowIds
        .slice(start, start + 100)
        .map((id) => workflowHealthKey(id));
      while (keys.length > 0) {
        const { Responses, UnprocessedKeys } = await this.table.doc.send(
          new BatchGetCommand({ RequestItems: { [this.table.name]: { Keys: keys } } }),
        );
        for (const item of Responses?.[this.table.name] ?? []) {
          const id = item.workflowId as string;
          found.set(id, toSummary(id, item));
        }
        keys = (UnprocessedKeys?.[this.table.name]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    for (const id of workflowIds) if (!found.has(id)) found.set(id, toSummary(id, undefined));
    return found;
  }

  /** Adds to the counters of one hour of a workflow (atomic `ADD`, created on first use). */
  async addToWorkflowHour(workflowId: string, hour: string, increments: HourIncrements, at: Date) {
    await this.addTo(workflowHealthHourKey(workflowId, hour), increments, at);
  }

  /** Adds to the counters of one hour of a deliveries partition (everyone's, or one lawyer's). */
  async addToDeliveryHour(partition: string, hour: string, increments: HourIncrements, at: Date) {
    await this.addTo(deliveryHourKey(partition, hour), increments, at);
  }

  async addToEveryonesHour(workflowId: string, hour: string, increments: HourIncrements, at: Date) {
    await this.addToDeliveryHour(allDeliveriesPartition(workflowId), hour, increments, at);
  }

  async addToOwnerHour(ownerEmail: string, hour: string, increments: HourIncrements, at: Date) {
    await this.addToDeliveryHour(ownerDeliveriesPartition(ownerEmail), hour, increments, at);
  }

  async ownerHours(ownerEmail: string, fromHour: string): Promise<HourCounters[]> {
    return this.deliveryHours(ownerDeliveriesPartition(ownerEmail), fromHour);
  }

  /** A workflow's hour counters from `fromHour` on, oldest first: one Query of its partition. */
  async workflowHours(workflowId: string, fromHour: string): Promise<HourCounters[]> {
    return this.hours(workflowKey(workflowId).PK, fromHour);
  }

  /** A deliveries partition's hour counters from `fromHour` on, oldest first. */
  async deliveryHours(partition: string, fromHour: string): Promise<HourCounters[]> {
    return this.hours(partition, fromHour);
  }

  /**
   * Everyone's hour counters from `fromHour` on: one Query per shard, all at once. An hour comes
   * once per shard it has counts in; their sum is the hour's figure (exact: each call added to
   * one shard only).
   */
  async allDeliveryHours(fromHour: string): Promise<HourCounters[]> {
    const shards = await Promise.all(
      allDeliveriesPartitions().map((partition) => this.hours(partition, fromHour)),
    );
    return shards.flat();
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

  /**
   * The longest streaks of the failing set and its size, read from the end of each shard and counted by
   * DynamoDB, so that neither the reply nor the memory grows with the set in an outage.
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

  async saveSettings(settings: HealthSettingsRecord, at: string): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...healthSettingsKey(), entity: 'HealthSettings', ...settings, updatedAt: at },
      }),
    );
  }

  /** Claims the one alert of `day` about a workflow: false when it was already sent that day. */
  async claimAlert(workflowId: string, day: string, at: Date): Promise<boolean> {
    return this.claim(healthAlertKey(workflowId, day), at);
  }

  /** Claims the digest of `day`: false when it was already sent. */
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

  private async addTo(key: { PK: string; SK: string }, increments: HourIncrements, at: Date) {
    const entries = Object.entries(increments).filter(([, amount]) => amount !== 0);
    if (entries.length === 0) return;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {
      ':entity': 'HealthHour',
      ':expires': epochSeconds(at) + HOUR_COUNTERS_TTL_SECONDS,
    };
    const adds = entries.map(([attribute, amount], index) => {
      if (!NUMBER_ATTRIBUTE.test(attribute)) throw new Error(`Compteur invalide : ${attribute}`);
      names[`#c${index}`] = attribute;
      values[`:c${index}`] = amount;
      return `#c${index} :c${index}`;
    });
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: key,
        UpdateExpression: `SET entity = :entity, expiresAt = :expires ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
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
