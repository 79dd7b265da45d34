import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { ExecutionRepository } from '../../functions/data/executions';
import { dueShardOf, scheduleKey, workflowKey } from '../../functions/data/keys';
import type { Table } from '../../functions/data/table';
import { WorkflowRepository } from '../../functions/data/workflows';
import { SchedulerService } from '../../functions/domain/scheduler';
import { type LocalQueues, startLocalQueues } from '../../lib/local/queue/local-queues';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';
import { folderRecord, workflowRecord } from '../support/records';
import { receiveAll } from '../support/scheduling';

/** One write sent to the table: its command, the items it wrote and the capacity DynamoDB counted. */
interface Write {
  readonly command: string;
  readonly keys: { PK: string; SK: string }[];
  readonly consumed: ConsumedCapacity[];
}

const WRITES = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
]);

/** The table, every write of which asks DynamoDB for its consumed capacity per index and is recorded. */
function recordingWrites(table: Table, writes: Write[]): Table {
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = command.constructor.name;
    if (!WRITES.has(name)) return table.doc.send(command as never);
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
 * Issue 13, small writes on the hot path: a claim and a recorded run write the workflow's schedule
 * item alone (1 write unit, and its entry of the due index), never the workflow item and its copies
 * in the list indexes.
 */
describe('schedule item on the hot path', () => {
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

  const read = async (Key: Record<string, string>) =>
    (await app.table.doc.send(new GetCommand({ TableName: app.table.name, Key, ConsistentRead: true }))).Item;

  it('claims by writing the schedule item alone, and records the last run on it alone', async () => {
    const folder = folderRecord();
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

    const shard = await new SchedulerService({
      table,
      queue: app.webhookQueue,
      clock: app.clock,
      logger: app.logger,
    }).claimShard(dueShardOf(workflow.id), app.clock.now());
    const [message] = await receiveAll(queues);
    await new ExecutionRepository(table).record({
      workflowId: workflow.id,
      dispatchId: message?.dispatchId ?? null,
      trigger: 'schedule',
      startedAt: app.clock.now().toISOString(),
      durationMs: 12,
      httpStatus: 200,
      outcome: 'success',
      message: 'OK',
      attempt: 1,
    });

    expect(shard).toMatchObject({ queued: 1, failed: 0 });
    // The workflow item, with its list-index keys, is exactly as it was: not one write touched it.
    expect(await read(workflowKey(workflow.id))).toEqual(before);
    expect(
      writes.flatMap((write) => write.keys).filter((key) => key.SK === workflowKey(workflow.id).SK),
    ).toEqual([]);
    const [claim, recorded] = writes;
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
        GlobalSecondaryIndexes: { DueIndex: { CapacityUnits: 2 } },
      }),
    ]);
    expect(Object.keys(recorded?.consumed[0]?.GlobalSecondaryIndexes ?? {})).toEqual(['DueIndex']);
  });

  it('deletes a lawyer’s workflows with their schedule items, out of the due index', async () => {
    const owner = 'etude.supprimee@example.com';
    const owned = Array.from({ length: 30 }, () => workflowRecord({ lawyerEmail: owner, cronEnabled: true }));
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
    const tick = await new SchedulerService({
      table: app.table,
      queue: app.webhookQueue,
      clock: app.clock,
      logger: app.logger,
    }).run('schedule');
    expect(tick.executions.map((execution) => execution.workflowId)).toEqual([other.id]);
  });
});
