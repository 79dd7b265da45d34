import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type SchedulerExecution, SchedulerRun } from '../../../shared/schemas/scheduler';
import type { SchedulerRuns } from '../../domain/scheduling/ports';
import {
  fannedOutResult,
  kindOf,
  type RunCounts,
  type RunKind,
  type RunReference,
  type ShardResult,
} from '../../domain/scheduling/run-results';
import { DUE_SHARDS } from '../../domain/scheduling/scheduling-settings';
import { getItemsByKey } from '../table/batch-get';
import type { Table } from '../table/table';
import { applied } from '../table/table-errors';
import { schedulerRunKey, schedulerRunShardKey } from './keys';

type Outcomes = Record<string, Pick<SchedulerExecution, 'status' | 'message'>>;

const KINDS: readonly RunKind[] = ['schedule', 'manual'];

const shardKeysOf = (kind: RunKind) =>
  Array.from({ length: DUE_SHARDS }, (_, shard) => schedulerRunShardKey(kind, shard));

/**
 * The last scheduler run of each kind, for /admin/settings: the run's item keeps its counts, each
 * shard's own item the runs it lists and their ends, because a write costs what its item weighs and
 * each reported end is a write.
 */
export class SchedulerRunRepository implements SchedulerRuns {
  constructor(private readonly table: Table) {}

  /** A run that stopped before it fanned out: its result as it is, the failure it says. */
  async save(run: SchedulerRun): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...schedulerRunKey(kindOf(run.trigger)), entity: 'SchedulerRun', run, outcomes: {} },
      }),
    );
  }

  /**
   * The start of a run that fans out: its result is empty until its claimers add their shards
   * (`addShard`); it shows what they added so far.
   */
  async startFanOut(trigger: SchedulerRun['trigger'], at: string, shards: number): Promise<void> {
    const run = fannedOutResult(trigger, at, { checked: 0, queued: 0, failed: 0 }, []);
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...schedulerRunKey(kindOf(trigger)),
          entity: 'SchedulerRun',
          run,
          outcomes: {},
          counts: { shards, shardsDone: 0, checked: 0, queued: 0, failed: 0, alreadyQueued: 0, notRun: 0 },
        },
      }),
    );
  }

  /**
   * A claimer starts listing its shard's runs for the run started at `at`: the shard's item is
   * emptied for this run before any of its runs is queued, so that a run ending before the
   * claimer is done (`addShard`) still finds where to report. An item already holding this run
   * or a later one (a retried claimer, a late one) is kept.
   */
  async startShard(kind: RunKind, at: string, shard: number): Promise<void> {
    await unlessLaterRun(
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...schedulerRunShardKey(kind, shard),
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
   * One claimer's shard of the run started at `at`: its counts added to the run's result, its
   * listed executions (a few) kept in the shard's item. Nothing when a later run is the last one now.
   */
  async addShard(kind: RunKind, at: string, shard: number, result: ShardResult): Promise<void> {
    await Promise.all([
      this.addCounts(kind, at, {
        '#counts.shardsDone': 1,
        '#counts.checked': result.checked,
        '#counts.queued': result.queued,
        '#counts.failed': result.failed,
        '#counts.alreadyQueued': result.alreadyQueued,
      }),
      result.executions.length === 0
        ? undefined
        : unlessLaterRun(
            this.table.doc.send(
              new UpdateCommand({
                TableName: this.table.name,
                Key: schedulerRunShardKey(kind, shard),
                // Appended: a claimer retried within its run lists the runs still due after the
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

  /** An admin's run whose claimers of `shards` shards never answered: its result says so. */
  async addShardsNotRun(at: string, shards: number): Promise<void> {
    await this.addCounts('manual', at, { '#counts.notRun': shards });
  }

  private async addCounts(kind: RunKind, at: string, added: Record<string, number>): Promise<void> {
    const paths = Object.keys(added);
    await unlessLaterRun(
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: schedulerRunKey(kind),
          UpdateExpression: `ADD ${paths.map((path, index) => `${path} :v${index}`).join(', ')}`,
          ConditionExpression: '#run.#timestamp = :at AND attribute_exists(#counts)',
          ExpressionAttributeNames: { '#run': 'run', '#timestamp': 'timestamp', '#counts': 'counts' },
          ExpressionAttributeValues: {
            ...Object.fromEntries(paths.map((path, index) => [`:v${index}`, added[path]])),
            ':at': at,
          },
        }),
      ),
    );
  }

  /**
   * The end of one run a scheduler run queued (its call succeeded or failed for good): kept beside
   * that run's result (beside its shard's list) while it is still the last of its kind, and shown
   * in its place.
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
          // A message queued before runs fanned out names no shard: its run kept its list itself.
          Key:
            run.shard === undefined ? schedulerRunKey(run.kind) : schedulerRunShardKey(run.kind, run.shard),
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
    const [schedule, manual] = await Promise.all(KINDS.map((kind) => this.lastRun(kind)));
    return { schedule: schedule ?? null, manual: manual ?? null };
  }

  /** The last run of one kind: its item and its shards' items, 65 keys in one BatchGetItem. */
  private async lastRun(kind: RunKind): Promise<SchedulerRun | null> {
    const found = await getItemsByKey(this.table, [schedulerRunKey(kind), ...shardKeysOf(kind)]);
    const item = found.get(schedulerRunKey(kind));
    const parsed = SchedulerRun.safeParse(item?.run);
    if (!parsed.success) return null;
    const counts = item?.counts as RunCounts | undefined;
    if (!counts) {
      return {
        ...parsed.data,
        executions: withOutcomes(parsed.data.executions, (item?.outcomes ?? {}) as Outcomes),
      };
    }
    // A run that fanned out: its counts are the sum of the shards its claimers reported, its
    // executions those its shards listed for this run.
    const at = parsed.data.timestamp;
    const executions = shardKeysOf(kind).flatMap((key) => {
      const shard = found.get(key);
      if ((shard?.run as { timestamp?: unknown } | undefined)?.timestamp !== at) return [];
      return withOutcomes(
        (shard?.executions ?? []) as SchedulerExecution[],
        (shard?.outcomes ?? {}) as Outcomes,
      );
    });
    return fannedOutResult(parsed.data.trigger, at, counts, executions);
  }
}

/**
 * A write conditional on which run an item keeps: refused, the item holds that run already or a
 * later one, and the write has nothing to change.
 */
async function unlessLaterRun(write: Promise<unknown>): Promise<void> {
  await applied(write);
}

/** Listed executions, each shown with the end it reported when it did. */
function withOutcomes(executions: readonly SchedulerExecution[], outcomes: Outcomes): SchedulerExecution[] {
  return executions.map((execution) => {
    const ended = outcomes[execution.workflowId];
    return ended ? { ...execution, status: ended.status, message: ended.message } : execution;
  });
}
