import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { schedulerRunKey, schedulerRunShardKey } from '../../../../functions/data/scheduling/keys';
import { SchedulerRunRepository } from '../../../../functions/data/scheduling/scheduler-runs';
import { dueShardOf } from '../../../../functions/data/table/due-index';
import type { Table } from '../../../../functions/data/table/table';
import { CLAIMS, DUE_SHARDS } from '../../../../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../../../../functions/handlers/scheduling/due-claimer';
import { createScheduledTickHandler } from '../../../../functions/handlers/scheduling/scheduled-tick';
import type { AppDependencies } from '../../../../functions/runtime/dependencies';
import { inProcessClaimers } from '../../../../functions/runtime/in-process-claimers';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import type { QueuePoller } from '../../../../lib/local/queue/poller';
import { MESSAGES } from '../../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { workflowRecord } from '../../../support/records';
import {
  eventually,
  queueDepth,
  receiveAll,
  startTestReceiver,
  startWorkerPoller,
  type TestReceiver,
} from '../../../support/scheduling';

/**
 * The minute tick that fans out (issue 13): the coordinator starts one claimer per due-index shard
 * (here in-process, awaited), each queues its shard's due runs first and claims them after. A
 * claimer stopped between the send and the claim loses nothing: the next tick sends the run again
 * under the same dispatch id, and the worker calls it once.
 */
describe('minute tick fanned out to claimers', () => {
  let base: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let poller: QueuePoller | undefined;

  beforeEach(async () => {
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    base = await createTestApp(inject('dynamoEndpoint'));
    receiver = await startTestReceiver(base);
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(base);
  });

  /** The app with the queue and in-process claimers over `table` (the claimers' own table). */
  function appWith(claimerTable: Table = base.table): TestApp {
    const claimers = inProcessClaimers(base.logger, { wait: true });
    const app: TestApp = { ...base, webhookQueue: queues.dispatchQueue, dueClaimers: claimers.claimers };
    claimers.bind(createDueClaimerHandler({ ...app, table: claimerTable } as AppDependencies));
    return app;
  }

  const scheduled = async (app: TestApp, count: number) => {
    const records = Array.from({ length: count }, (_, index) =>
      // Hourly: a tick queues each one's first run alone (a claim takes the next ten minutes).
      workflowRecord({ cronEnabled: true, cronInterval: 60, webhookUrl: `${receiver.baseUrl}/w/${index}` }),
    );
    for (const record of records) await new WorkflowRepository(app.table).create(record);
    return records;
  };

  it('queues every due run of every shard once, and the last result adds up the shards', async () => {
    const app = appWith();
    const records = await scheduled(app, 40);
    expect(new Set(records.map((record) => dueShardOf(record.id))).size).toBeGreaterThan(1);

    const result = await createScheduledTickHandler(app)({});
    expect(result.shards).toBe(DUE_SHARDS);
    const messages = await receiveAll(queues);
    expect(messages.map((message) => message.workflowId).sort()).toEqual(records.map((r) => r.id).sort());
    // Never ran: each is due from when it was scheduled, whichever tick claims it.
    const scheduledAt = new Map(records.map((record) => [record.id, record.updatedAt]));
    for (const message of messages) {
      expect(message.dispatchId).toBe(`${message.workflowId}:${scheduledAt.get(message.workflowId)}`);
    }
    // Claimed: a second tick at the same time finds nothing due.
    await createScheduledTickHandler(app)({});
    expect(await receiveAll(queues)).toEqual([]);

    const { schedule } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(schedule).toMatchObject({ trigger: 'schedule', workflows_checked: 0 });
    const first = await new SchedulerRunRepository(app.table).lastRuns();
    expect(first.schedule?.message).toBe(MESSAGES.scheduler.summary(0, 0));
  });

  it('records the tick result the shards add up to', async () => {
    const app = appWith();
    await scheduled(app, 12);
    await createScheduledTickHandler(app)({});
    const { schedule } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(schedule).toMatchObject({
      trigger: 'schedule',
      success: true,
      workflows_checked: 12,
      message: MESSAGES.scheduler.summary(12, 12),
    });
    expect(schedule?.executions.length).toBeGreaterThan(0);
    expect(schedule?.executions.every((execution) => execution.status === 'queued')).toBe(true);
  });

  it('loses no run when a claimer stops after the send and before the claim: called once', async () => {
    // The claimers' table refuses every claim (an UpdateItem moving DueSK), as a claimer that timed
    // out right after its sends would leave things: queued, not claimed.
    const refusingClaims: Table = {
      name: base.table.name,
      doc: new Proxy(base.table.doc, {
        get(target, property, receiver) {
          if (property !== 'send') return Reflect.get(target, property, receiver);
          return (command: { input?: { UpdateExpression?: string } }, ...rest: unknown[]) => {
            if (command.input?.UpdateExpression?.includes('DueSK = :next')) {
              return Promise.reject(Object.assign(new Error('arrêt simulé'), { name: 'TimeoutError' }));
            }
            return (target.send as (...args: unknown[]) => unknown)(command, ...rest);
          };
        },
      }),
    };
    const crashing = appWith(refusingClaims);
    const [workflow] = await scheduled(crashing, 1);
    if (!workflow) throw new Error('pas de workflow');

    await createScheduledTickHandler(crashing)({});
    expect(await queueDepth(queues)).toMatchObject({ total: 1 });

    poller = startWorkerPoller(queues, crashing);
    await eventually(
      async () => receiver.calls.length === 1 && (await queueDepth(queues)).total === 0,
      'appel',
    );

    // Still due: the next tick (working claims now) sends it again, under the same dispatch id.
    const healthy = appWith();
    await createScheduledTickHandler(healthy)({});
    await eventually(
      async () => (await queueDepth(queues)).total === 0 && poller?.inFlight === 0,
      'doublon traité',
    );

    expect(receiver.calls).toHaveLength(1);
    expect(receiver.calls[0]?.headers['webhook-id']).toBe(`${workflow.id}:${workflow.updatedAt}`);
    expect(
      base.logger.lines.some((line) => line.includes('Exécution déjà terminée : message en double ignoré')),
    ).toBe(true);
    // And claimed now: a third tick finds nothing due.
    await createScheduledTickHandler(healthy)({});
    expect(await queueDepth(queues)).toMatchObject({ total: 0 });
  });

  it('shows the end of each listed run, kept in its shard’s small item rather than in one item growing with the tick', async () => {
    const app = appWith();
    const records = await scheduled(app, 40);
    const { tickAt } = await createScheduledTickHandler(app)({});
    poller = startWorkerPoller(queues, app);
    await eventually(
      async () =>
        receiver.calls.length === 40 && (await queueDepth(queues)).total === 0 && poller?.inFlight === 0,
      'appels terminés',
    );

    const { schedule } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(schedule).toMatchObject({ timestamp: tickAt, workflows_checked: 40 });
    const shards = new Map<number, number>();
    for (const record of records)
      shards.set(dueShardOf(record.id), (shards.get(dueShardOf(record.id)) ?? 0) + 1);
    const listed = [...shards.values()].reduce((sum, runs) => sum + Math.min(runs, CLAIMS.listedPerShard), 0);
    expect(schedule?.executions).toHaveLength(listed);
    expect(schedule?.executions.every((execution) => execution.status === 'success')).toBe(true);
    expect(new Set(schedule?.executions.map((execution) => execution.workflowId)).size).toBe(listed);

    // The tick's own item holds its counts only; each shard's item its few listed runs and ends.
    const read = async (key: { PK: string; SK: string }) =>
      (
        await app.table.doc.send(
          new GetCommand({ TableName: app.table.name, Key: key, ConsistentRead: true }),
        )
      ).Item;
    const tick = await read(schedulerRunKey('schedule'));
    expect(tick?.run.executions).toEqual([]);
    expect(tick?.outcomes).toEqual({});
    for (const [shard, runs] of shards) {
      const item = await read(schedulerRunShardKey('schedule', shard));
      expect(item?.run.timestamp).toBe(tickAt);
      expect(item?.executions).toHaveLength(Math.min(runs, CLAIMS.listedPerShard));
      expect(Object.keys(item?.outcomes ?? {})).toHaveLength(Math.min(runs, CLAIMS.listedPerShard));
    }
  });
});

/** The tick's last result kept shard by shard (functions/data/scheduling/scheduler-runs.ts). */
describe('the last minute tick’s result, shard by shard', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterEach(async () => {
    await disposeTestApp(app);
  });

  const queued = (workflowId: string) => ({
    workflowId,
    workflowName: `Automatisation ${workflowId}`,
    status: 'queued' as const,
    message: MESSAGES.scheduler.queued,
  });
  const counts = { checked: 1, queued: 1, failed: 0, alreadyQueued: 0 };

  it('keeps the end of a run that ended before its claimer had listed it', async () => {
    const runs = new SchedulerRunRepository(app.table);
    const at = '2026-11-26T10:00:00.000Z';
    await runs.startFanOut('schedule', at, DUE_SHARDS);
    await runs.startShard('schedule', at, 3);
    await runs.recordOutcome({ kind: 'schedule', at, shard: 3 }, 'wf-rapide', {
      status: 'success',
      message: MESSAGES.workflow.workflowExecuted,
    });
    await runs.addShard('schedule', at, 3, { ...counts, executions: [queued('wf-rapide')] });

    const { schedule } = await runs.lastRuns();
    expect(schedule?.executions).toEqual([
      { ...queued('wf-rapide'), status: 'success', message: MESSAGES.workflow.workflowExecuted },
    ]);
  });

  it('keeps both lists of a claimer retried within its tick', async () => {
    const runs = new SchedulerRunRepository(app.table);
    const at = '2026-11-26T10:00:00.000Z';
    await runs.startFanOut('schedule', at, DUE_SHARDS);
    await runs.startShard('schedule', at, 7);
    await runs.addShard('schedule', at, 7, { ...counts, executions: [queued('wf-essai-1')] });
    await runs.startShard('schedule', at, 7);
    await runs.addShard('schedule', at, 7, { ...counts, executions: [queued('wf-essai-2')] });

    const { schedule } = await runs.lastRuns();
    expect(schedule?.executions.map((execution) => execution.workflowId)).toEqual([
      'wf-essai-1',
      'wf-essai-2',
    ]);
  });

  it('shows only the last tick’s lists: an older claimer, late, changes nothing', async () => {
    const runs = new SchedulerRunRepository(app.table);
    const first = '2026-11-26T10:00:00.000Z';
    const second = '2026-11-26T10:01:00.000Z';
    await runs.startFanOut('schedule', first, DUE_SHARDS);
    await runs.startShard('schedule', first, 5);
    await runs.addShard('schedule', first, 5, { ...counts, executions: [queued('wf-premier')] });
    expect((await runs.lastRuns()).schedule?.executions.map((e) => e.workflowId)).toEqual(['wf-premier']);

    // The next tick: shard 5 has not listed yet, so its older list is not this tick's.
    await runs.startFanOut('schedule', second, DUE_SHARDS);
    expect((await runs.lastRuns()).schedule?.executions).toEqual([]);
    await runs.startShard('schedule', second, 5);
    await runs.addShard('schedule', second, 5, { ...counts, executions: [queued('wf-second')] });

    // The first tick's claimer, retried late, and a report of its run: all refused.
    await runs.startShard('schedule', first, 5);
    await runs.addShard('schedule', first, 5, { ...counts, executions: [queued('wf-premier')] });
    await runs.recordOutcome({ kind: 'schedule', at: first, shard: 5 }, 'wf-premier', {
      status: 'failed',
      message: MESSAGES.execution.serverError,
    });
    const { schedule } = await runs.lastRuns();
    expect(schedule).toMatchObject({ timestamp: second, workflows_checked: 1 });
    expect(schedule?.executions).toEqual([queued('wf-second')]);
  });
});
