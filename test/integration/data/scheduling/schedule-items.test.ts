import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { FolderRepository } from '../../../../functions/data/directory/folders';
import { scheduleKey, WORKFLOWS_PARTITION, workflowKey } from '../../../../functions/data/directory/keys';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { HealthWriteRepository } from '../../../../functions/data/health/health-writes';
import { schedulerRunShardKey } from '../../../../functions/data/scheduling/keys';
import { dueIndexKeys, dueShardOf } from '../../../../functions/data/table/due-index';
import { createdSortKey, shardOf } from '../../../../functions/data/table/keys';
import type { Table } from '../../../../functions/data/table/table';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { healthHourOf } from '../../../../functions/domain/health/automation-health';
import { migrateWorkflows } from '../../../../functions/migrations/workflow-migration';
import { schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { folderRecord, minutes, workflowRecord } from '../../../support/records';
import { receiveAll } from '../../../support/scheduling';

/** One write sent to the table: its command, the items it wrote and the capacity DynamoDB counted. */
interface Write {
  readonly command: string;
  readonly keys: { PK: string; SK: string }[];
  readonly consumed: ConsumedCapacity[];
}

/** The table, every write of which asks DynamoDB for its consumed capacity per index and is recorded. */
function recordingWrites(table: Table, writes: Write[]): Table {
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = command.constructor.name;
    if (/^(Get|BatchGet|Query|Scan)/.test(name)) return table.doc.send(command as never);
    command.input.ReturnConsumedCapacity = 'INDEXES';
    const output = (await table.doc.send(command as never)) as { ConsumedCapacity?: unknown };
    const input = command.input as {
      Key?: { PK: string; SK: string };
      Item?: { PK: string; SK: string };
      TransactItems?: Record<
        string,
        { Key?: { PK: string; SK: string }; Item?: { PK: string; SK: string } }
      >[];
    };
    const keys = input.TransactItems
      ? input.TransactItems.flatMap((item) => Object.values(item).map((write) => write.Key ?? write.Item))
      : [input.Key ?? input.Item];
    const consumed = output.ConsumedCapacity;
    writes.push({
      command: name,
      keys: keys.flatMap((key) => (key ? [{ PK: key.PK, SK: key.SK }] : [])),
      consumed: (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as ConsumedCapacity[],
    });
    return output;
  };
  return { ...table, doc: { send } as unknown as Table['doc'] };
}

/**
 * Issue 13, small writes on the hot path: each workflow's schedule state lives in its schedule item
 * (`SK=SCHEDULE`). A claim and a recorded run write that item alone (1 write unit, and its entry of
 * the due index), never the workflow item and its copies in the list indexes; deletes take both;
 * `npm run migrate` (functions/migrations/workflow-migration.ts) brings workflows stored in the shape
 * before — schedule state and due keys on the workflow item, some in the single `WORKFLOWS` list
 * partition, some under the 8-shard due index — to it, after which the tick claims them exactly
 * once and the lists show them with their last and next run.
 */
describe('schedule items', () => {
  let app: TestApp;
  let queues: LocalQueues;
  let workflows: WorkflowRepository;

  beforeEach(async () => {
    queues = await startLocalQueues();
    app = { ...(await createTestApp(inject('dynamoEndpoint'))), webhookQueue: queues.dispatchQueue };
    workflows = new WorkflowRepository(app.table);
  });
  afterEach(async () => {
    await disposeTestApp(app);
    await queues.stop();
  });

  const scheduler = () =>
    schedulerServiceOf({ table: app.table, queue: app.webhookQueue, clock: app.clock, logger: app.logger });

  const read = async (Key: Record<string, string>) =>
    (await app.table.doc.send(new GetCommand({ TableName: app.table.name, Key, ConsistentRead: true }))).Item;

  describe('on the hot path', () => {
    it('claims by writing the schedule item alone, and records the run’s end on it alone', async () => {
      const folder = folderRecord();
      await new FolderRepository(app.table).create(folder);
      const workflow = workflowRecord({ cronEnabled: true, folderId: folder.id });
      await workflows.create(workflow);
      const before = await read(workflowKey(workflow.id));
      expect(before).toMatchObject({
        GSI1PK: expect.any(String),
        GSI2PK: expect.any(String),
        GSI3PK: expect.any(String),
      });
      const writes: Write[] = [];
      const table = recordingWrites(app.table, writes);

      const shard = await schedulerServiceOf({
        table,
        queue: app.webhookQueue,
        clock: app.clock,
        logger: app.logger,
      }).claimShard(dueShardOf(workflow.id), app.clock.now());
      const [message] = await receiveAll(queues);
      // The run's end: its last run, streak and hour counters, on the schedule item.
      await new HealthWriteRepository(table).recordRunEnd({
        workflowId: workflow.id,
        startedAt: app.clock.now().toISOString(),
        setsLastRun: true,
        streak: 'success',
        retried: false,
        count: { hour: healthHourOf(app.clock.now()), increments: { succeeded: 1 } },
      });
      expect(message?.dispatchId).toEqual(expect.any(String));

      expect(shard).toMatchObject({ queued: 1, failed: 0 });
      // The workflow item, with its list-index keys, is exactly as it was: not one write touched it.
      expect(await read(workflowKey(workflow.id))).toEqual(before);
      expect(
        writes.flatMap((write) => write.keys).filter((key) => key.SK === workflowKey(workflow.id).SK),
      ).toEqual([]);
      // Before the claim, the shard's last-result list made ready for this tick (its own small
      // item, functions/data/scheduling/scheduler-runs.ts); then the claim, on the schedule item alone.
      const [listReady, claim, recorded] = writes;
      expect(listReady?.keys).toEqual([schedulerRunShardKey('schedule', dueShardOf(workflow.id))]);
      expect(claim?.keys).toEqual([scheduleKey(workflow.id)]);
      expect(recorded?.keys[0]).toEqual(scheduleKey(workflow.id));
      expect(await workflows.getById(workflow.id)).toMatchObject({
        cronLastRun: app.clock.now().toISOString(),
        cronNextRun: expect.any(String),
      });
      // What DynamoDB counted for the claim: the schedule item and its due-index entry, no list index.
      // What DynamoDB counted: for the claim, the schedule item (1 unit) and its due-index entry moved
      // (delete + put: 2), no list index; for the recorded run, no list index either.
      expect(claim?.consumed).toEqual([
        expect.objectContaining({
          CapacityUnits: 3,
          Table: { CapacityUnits: 1 },
          GlobalSecondaryIndexes: { DueSlots: { CapacityUnits: 2 } },
        }),
      ]);
      // The last run is not projected in the due index: recording it rewrites no index entry.
      expect(Object.keys(recorded?.consumed[0]?.GlobalSecondaryIndexes ?? {})).toEqual([]);
    });

    it('deletes a lawyer’s workflows with their schedule items, out of the due index', async () => {
      const owner = 'etude.supprimee@example.com';
      const owned = Array.from({ length: 30 }, () =>
        workflowRecord({ lawyerEmail: owner, cronEnabled: true }),
      );
      const other = workflowRecord({ cronEnabled: true });
      for (const workflow of [...owned, other]) await workflows.create(workflow);

      expect(await workflows.deleteByOwner(owner)).toBe(30);

      for (const workflow of owned) {
        const { Items = [] } = await app.table.doc.send(
          new QueryCommand({
            TableName: app.table.name,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': workflowKey(workflow.id).PK },
            ConsistentRead: true,
          }),
        );
        expect(Items).toEqual([]);
      }
      const tick = await scheduler().run('schedule');
      expect(tick.executions.map((execution) => execution.workflowId)).toEqual([other.id]);
    });
  });

  describe('migration from the shape before', () => {
    /** A workflow item as the code before issue 13's schedule items wrote it. */
    async function formerShape(
      record: WorkflowRecord,
      options: {
        readonly singlePartition?: boolean;
        readonly eightShards?: boolean;
        readonly extra?: object;
      } = {},
    ) {
      const sortKey = createdSortKey(record.createdAt, record.id);
      const due = dueIndexKeys(record);
      await app.table.doc.send(
        new PutCommand({
          TableName: app.table.name,
          Item: {
            ...workflowKey(record.id),
            entity: 'Workflow',
            GSI1PK: options.singlePartition
              ? WORKFLOWS_PARTITION
              : `${WORKFLOWS_PARTITION}#${shardOf(record.id, 4)}`,
            GSI1SK: sortKey,
            GSI2PK: `OWNER#${record.lawyerEmail}`,
            GSI2SK: sortKey,
            ...(due
              ? { ...due, ...(options.eightShards ? { DuePK: `DUE#${dueShardOf(record.id) % 8}` } : {}) }
              : {}),
            ...record,
            ...options.extra,
          },
        }),
      );
      return record;
    }

    it('gives each workflow its schedule item, strips the workflow item, and the ticks send each due one under one dispatch id', async () => {
      const now = app.clock.now().getTime();
      const owner = 'etude.migree@example.com';
      const dueNever = await formerShape(workflowRecord({ cronEnabled: true, lawyerEmail: owner }), {
        singlePartition: true,
      });
      const dueClaimed = await formerShape(
        workflowRecord({
          cronEnabled: true,
          lawyerEmail: owner,
          cronLastRun: new Date(now - minutes(3)).toISOString(),
          cronNextRun: new Date(now - minutes(1)).toISOString(),
        }),
        { eightShards: true, extra: { claimedAt: new Date(now - minutes(3)).toISOString() } },
      );
      const later = await formerShape(
        workflowRecord({ cronEnabled: true, cronNextRun: new Date(now + minutes(30)).toISOString() }),
        { singlePartition: true, extra: { manualRunAt: new Date(now - 5_000).toISOString() } },
      );
      const off = await formerShape(
        workflowRecord({ cronLastRun: new Date(now - minutes(90)).toISOString(), lawyerEmail: owner }),
      );
      const current = workflowRecord({ cronEnabled: true });
      await workflows.create(current);
      // Before the migration, the tick leaves the former items alone (nothing to claim them on).
      expect((await scheduler().run('schedule')).executions.map((execution) => execution.workflowId)).toEqual(
        [current.id],
      );
      await receiveAll(queues);

      expect(await migrateWorkflows(app.table, 2)).toEqual({ read: 5, migrated: 4, failed: 0 });
      expect(await migrateWorkflows(app.table, 2)).toEqual({ read: 5, migrated: 0, failed: 0 });

      for (const record of [dueNever, dueClaimed, later, off]) {
        const item = await read(workflowKey(record.id));
        // No schedule state nor due key left on the workflow item.
        expect(
          Object.keys(item ?? {}).filter((key) =>
            /^(cron(Last|Next)Run|claimedAt|manualRunAt|Due)/.test(key),
          ),
        ).toEqual([]);
        expect(item).toMatchObject({ GSI1PK: WORKFLOWS_PARTITION, name: record.name });
        // A scheduled workflow that never ran is due from the migration of its item's version.
        const firstDue = record === dueNever ? { cronNextRun: record.updatedAt } : {};
        expect(await workflows.getById(record.id)).toEqual({ ...record, ...firstDue });
      }
      expect(await read(scheduleKey(later.id))).toMatchObject({
        manualRunAt: new Date(now - 5_000).toISOString(),
        DuePK: `DUE#${dueShardOf(later.id)}`,
      });
      expect(await read(scheduleKey(dueClaimed.id))).toMatchObject({
        DuePK: `DUE#${dueShardOf(dueClaimed.id)}`,
      });
      expect(await read(scheduleKey(off.id))).not.toHaveProperty('DuePK');
      for (let shard = 0; shard < 4; shard++) {
        const { Items: sharded = [] } = await app.table.doc.send(
          new QueryCommand({
            TableName: app.table.name,
            IndexName: 'GSI1',
            KeyConditionExpression: 'GSI1PK = :pk',
            ExpressionAttributeValues: { ':pk': `${WORKFLOWS_PARTITION}#${shard}` },
          }),
        );
        expect(sharded).toEqual([]);
      }

      // Two ticks at once (a retried invocation): each sends before it claims, so a slot both read
      // may be queued twice, under its one dispatch id (the worker calls it once).
      const runs = await Promise.all([scheduler().run('schedule'), scheduler().run('schedule')]);
      const queued = runs.flatMap((run) =>
        run.executions.filter((execution) => execution.status === 'queued'),
      );
      expect([...new Set(queued.map((execution) => execution.workflowId))].sort()).toEqual(
        [dueNever.id, dueClaimed.id].sort(),
      );
      expect([...new Set((await receiveAll(queues)).map((message) => message.dispatchId))].sort()).toEqual(
        [`${dueNever.id}:${dueNever.updatedAt}`, `${dueClaimed.id}:${dueClaimed.cronNextRun}`].sort(),
      );

      const listed = (await workflows.find({ limit: 10 })).items;
      expect(listed.map((workflow) => workflow.id).sort()).toEqual(
        [dueNever.id, dueClaimed.id, later.id, off.id, current.id].sort(),
      );
      expect(listed.find((workflow) => workflow.id === off.id)?.cronLastRun).toBe(off.cronLastRun);
      expect((await workflows.listByOwner(owner)).map((workflow) => workflow.id).sort()).toEqual(
        [dueNever.id, dueClaimed.id, off.id].sort(),
      );
    });

    it('moves a workflow of the former 16-shard list to the list’s one partition, once, and the list shows it', async () => {
      const record = workflowRecord();
      await workflows.create(record);
      const former = `${WORKFLOWS_PARTITION}#${shardOf(record.id, 16)}`;
      await app.table.doc.send(
        new UpdateCommand({
          TableName: app.table.name,
          Key: workflowKey(record.id),
          UpdateExpression: 'SET GSI1PK = :former',
          ExpressionAttributeValues: { ':former': former },
        }),
      );
      const listed = async () => (await workflows.find({ limit: 100 })).items.map((workflow) => workflow.id);
      expect(await listed()).not.toContain(record.id);

      expect(await migrateWorkflows(app.table)).toMatchObject({ migrated: 1, failed: 0 });
      expect(await migrateWorkflows(app.table)).toMatchObject({ migrated: 0, failed: 0 });

      expect(await read(workflowKey(record.id))).toMatchObject({ GSI1PK: WORKFLOWS_PARTITION });
      expect(await listed()).toContain(record.id);
    });

    it('takes a claim the former code makes while it runs into the schedule item, not the slot read before', async () => {
      const now = app.clock.now().getTime();
      const record = await formerShape(
        workflowRecord({ cronEnabled: true, cronNextRun: new Date(now - minutes(1)).toISOString() }),
      );
      const claimedNext = new Date(now + minutes(5)).toISOString();
      let claimed = false;
      // A table on which a tick of the former code claims the workflow between the migration's read
      // and its first write.
      const racing: Table = {
        ...app.table,
        doc: {
          send: async (command: { constructor: { name: string } }) => {
            if (!claimed && command.constructor.name === 'TransactWriteCommand') {
              claimed = true;
              await app.table.doc.send(
                new UpdateCommand({
                  TableName: app.table.name,
                  Key: workflowKey(record.id),
                  UpdateExpression: 'SET DueSK = :sortKey, cronNextRun = :next, claimedAt = :now',
                  ExpressionAttributeValues: {
                    ':sortKey': `${claimedNext}#${record.id}`,
                    ':next': claimedNext,
                    ':now': new Date(now).toISOString(),
                  },
                }),
              );
            }
            return app.table.doc.send(command as never);
          },
        } as unknown as Table['doc'],
      };

      expect(await migrateWorkflows(racing)).toEqual({ read: 1, migrated: 1, failed: 0 });

      expect(claimed).toBe(true);
      expect(await read(scheduleKey(record.id))).toMatchObject({
        cronNextRun: claimedNext,
        claimedAt: new Date(now).toISOString(),
        DueSK: `${claimedNext}#${record.id}`,
      });
      expect((await scheduler().run('schedule')).executions).toEqual([]);
    });
  });
});
