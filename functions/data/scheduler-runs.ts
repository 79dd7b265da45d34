import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import { MESSAGES } from '../../shared/messages';
import { type SchedulerExecution, SchedulerRun } from '../../shared/schemas/scheduler';
import { getItemsByKey } from './batch-get';
import { DUE_SHARDS, schedulerRunKey, schedulerRunShardKey } from './keys';
import { isConditionFailure, type Table } from './table';

export type RunKind = 'schedule' | 'manual';

/** The scheduler run a dispatched run reports its end to (the message's `run`). */
export interface RunReference {
  readonly kind: RunKind;
  /** The run's time: a report for an older run than the one kept is dropped. */
  readonly at: string;
  /** A minute tick's due-index shard that listed the run: its report goes to that shard's item. */
  readonly shard?: number;
}

type Outcomes = Record<string, Pick<SchedulerExecution, 'status' | 'message'>>;

const shardKeys = Array.from({ length: DUE_SHARDS }, (_, shard) => schedulerRunShardKey(shard));

const kindOf = (trigger: SchedulerRun['trigger']): RunKind =>
  trigger === 'schedule' ? 'schedule' : 'manual';

/**
 * The last scheduler run of each kind (the minute schedule, an admin's), so that /admin/settings
 * shows the last result after a reload. One item each, overwritten by every run. A minute tick
 * that fans out keeps only its counts there; the runs each shard lists, and their ends, are in that
 * shard's own item. Every listed run's end is a write to the item holding it, and a write costs
 * what the item weighs: one item holding a tick's 64 x 10 listed runs and their ends would weigh
 * 100-150 KB, so each of its 640 reports would cost 100-150 write units, 80,000 a minute on one
 * item whose partition takes 1,000 a second (throttled, retried inside the worker's invocations).
 * A shard's item weighs a few KB.
 */
export class SchedulerRunRepository {
  constructor(private readonly table: Table) {}

  async save(run: SchedulerRun): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...schedulerRunKey(kindOf(run.trigger)), entity: 'SchedulerRun', run, outcomes: {} },
      }),
    );
  }

  /**
   * The start of a minute tick that fans out: its result is empty until its claimers add their
   * shards (`addShard`); it shows what they added so far.
   */
  async startFanOut(at: string, shards: number): Promise<void> {
    const run: SchedulerRun = {
      trigger: 'schedule',
      success: true,
      timestamp: at,
      workflows_checked: 0,
      executions: [],
      message: MESSAGES.scheduler.summary(0, 0),
    };
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...schedulerRunKey('schedule'),
          entity: 'SchedulerRun',
          run,
          outcomes: {},
          counts: { shards, shardsDone: 0, checked: 0, queued: 0, failed: 0 },
        },
      }),
    );
  }

  /**
   * A claimer starts listing its shard's runs for the tick started at `at`: the shard's item is
   * emptied for this tick before any of its runs is queued, so that a run ending before the
   * claimer is done (`addShard`) still finds where to report. An item already holding this tick
   * or a later one (a retried claimer, a late one) is kept.
   */
  async startShard(at: string, shard: number): Promise<void> {
    await unlessLaterRun(
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...schedulerRunShardKey(shard),
            entity: 'SchedulerRunShard',
            run: { timestamp: at },
            executions: [],
            outcomes: {},
          },
          ConditionExpression: 'attribute_not_exists(#run) OR #run.#timestamp < :at',
          ExpressionAttributeNames: { '#run': 'run', '#timestamp': 'timestamp' },
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
  }

  /**
   * One claimer's shard of the tick started at `at`: its counts added to the tick's result, its
   * listed executions (a few) kept in the shard's item. Nothing when a later tick is the last one now.
   */
  async addShard(
    at: string,
    shard: number,
    result: {
      readonly checked: number;
      readonly queued: number;
      readonly failed: number;
      readonly executions: readonly SchedulerExecution[];
    },
  ): Promise<void> {
    await Promise.all([
      unlessLaterRun(
        this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: schedulerRunKey('schedule'),
            UpdateExpression:
              'ADD #counts.shardsDone :one, #counts.checked :checked, #counts.queued :queued, #counts.failed :failed',
            ConditionExpression: '#run.#timestamp = :at AND attribute_exists(#counts)',
            ExpressionAttributeNames: { '#run': 'run', '#timestamp': 'timestamp', '#counts': 'counts' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':checked': result.checked,
              ':queued': result.queued,
              ':failed': result.failed,
              ':at': at,
            },
          }),
        ),
      ),
      result.executions.length === 0
        ? undefined
        : unlessLaterRun(
            this.table.doc.send(
              new UpdateCommand({
                TableName: this.table.name,
                Key: schedulerRunShardKey(shard),
                // Appended: a claimer retried within its tick lists the runs still due after the
                // first attempt, beside those the first attempt listed (and whose ends come here).
                UpdateExpression: 'SET executions = list_append(executions, :executions)',
                ConditionExpression: '#run.#timestamp = :at',
                ExpressionAttributeNames: { '#run': 'run', '#timestamp': 'timestamp' },
                ExpressionAttributeValues: { ':executions': result.executions, ':at': at },
              }),
            ),
          ),
    ]);
  }

  /**
   * The end of one run a scheduler run queued (its call succeeded or failed for good): kept beside
   * that run's result (a tick's: beside its shard's list) while it is still the last of its kind,
   * and shown in its place.
   */
  async recordOutcome(
    run: RunReference,
    workflowId: string,
    outcome: { readonly status: 'success' | 'failed'; readonly message: string },
  ): Promise<void> {
    // A later run is the last one now: this outcome stays in the workflow's history only.
    await unlessLaterRun(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: run.shard === undefined ? schedulerRunKey(run.kind) : schedulerRunShardKey(run.shard),
          UpdateExpression: 'SET outcomes.#workflow = :outcome',
          ConditionExpression: '#run.#timestamp = :runAt',
          ExpressionAttributeNames: { '#workflow': workflowId, '#run': 'run', '#timestamp': 'timestamp' },
          ExpressionAttributeValues: { ':outcome': outcome, ':runAt': run.at },
        }),
      ),
    );
  }

  /** The last run of each kind, with the ends its listed runs reported so far. */
  async lastRuns(): Promise<{ schedule: SchedulerRun | null; manual: SchedulerRun | null }> {
    const found = await getItemsByKey(this.table, [
      schedulerRunKey('schedule'),
      schedulerRunKey('manual'),
      ...shardKeys,
    ]);
    const find = (kind: RunKind): SchedulerRun | null => {
      const item = found.get(schedulerRunKey(kind));
      const parsed = SchedulerRun.safeParse(item?.run);
      if (!parsed.success) return null;
      const counts = item?.counts as
        | { checked: number; queued: number; failed: number; shards: number; shardsDone: number }
        | undefined;
      if (!counts) {
        return {
          ...parsed.data,
          executions: withOutcomes(parsed.data.executions, (item?.outcomes ?? {}) as Outcomes),
        };
      }
      // A tick that fanned out: its counts are the sum of the shards its claimers reported, its
      // executions those its shards listed for this tick.
      const run: SchedulerRun = {
        ...parsed.data,
        success: counts.failed === 0,
        workflows_checked: counts.checked,
        message: MESSAGES.scheduler.summary(counts.queued, counts.checked),
        ...(counts.failed > 0 ? { error: MESSAGES.scheduler.someQueueFailures(counts.failed) } : {}),
      };
      const executions = shardKeys.flatMap((key) => {
        const shard = found.get(key);
        if ((shard?.run as { timestamp?: unknown } | undefined)?.timestamp !== run.timestamp) return [];
        return withOutcomes(
          (shard?.executions ?? []) as SchedulerExecution[],
          (shard?.outcomes ?? {}) as Outcomes,
        );
      });
      return { ...run, executions };
    };
    return { schedule: find('schedule'), manual: find('manual') };
  }
}

/**
 * A write conditional on which run an item keeps: refused, the item holds that run already or a
 * later one, and the write has nothing to change.
 */
async function unlessLaterRun(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Listed executions, each shown with the end it reported when it did. */
function withOutcomes(executions: readonly SchedulerExecution[], outcomes: Outcomes): SchedulerExecution[] {
  return executions.map((execution) => {
    const ended = outcomes[execution.workflowId];
    return ended ? { ...execution, status: ended.status, message: ended.message } : execution;
  });
}
