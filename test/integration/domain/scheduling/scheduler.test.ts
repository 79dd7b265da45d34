import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { scheduleKey, workflowKey } from '../../../../functions/data/directory/keys';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { dueShardOf } from '../../../../functions/data/table/due-index';
import { WorkflowNotFoundError, type WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type { DispatchQueue } from '../../../../functions/domain/scheduling/ports';
import { schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import { MESSAGES } from '../../../../shared/messages';
import { REDRIVE_MESSAGES } from '../../../../shared/report-messages';
import type { SchedulerResult, SchedulerStatusReply } from '../../../../shared/schemas/scheduler';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, issueAndSignIn } from '../../../support/directory';
import { minutes, workflowRecord } from '../../../support/records';
import { queueDepth, receiveAll, withClaimers } from '../../../support/scheduling';

describe('scheduler', () => {
  let app: TestApp;
  let queues: LocalQueues;
  let workflows: WorkflowRepository;

  beforeEach(async () => {
    queues = await startLocalQueues();
    const base = await createTestApp(inject('dynamoEndpoint'));
    app = withClaimers({ ...base, webhookQueue: queues.dispatchQueue });
    workflows = new WorkflowRepository(app.table);
  });
  afterEach(async () => {
    await disposeTestApp(app);
    await queues.stop();
  });

  const scheduler = (queue: DispatchQueue = app.webhookQueue) =>
    schedulerServiceOf({ table: app.table, queue, clock: app.clock, logger: app.logger });

  async function scheduled(overrides: Partial<WorkflowRecord> = {}) {
    const record = workflowRecord({ cronEnabled: true, ...overrides });
    await workflows.create(record);
    return record;
  }

  async function storedSchedule(id: string) {
    const { Item } = await app.table.doc.send(
      new GetCommand({ TableName: app.table.name, Key: scheduleKey(id), ConsistentRead: true }),
    );
    return Item ?? {};
  }

  describe('the due index', () => {
    it('reads only the due workflows: active, scheduled, and due by the next tick', async () => {
      const now = app.clock.now().getTime();
      const due = [
        await scheduled(),
        await scheduled({ cronLastRun: new Date(now - minutes(3)).toISOString() }),
        await scheduled({ cronNextRun: new Date(now - minutes(1)).toISOString() }),
      ];
      await scheduled({ cronNextRun: new Date(now + minutes(10)).toISOString() });
      await scheduled({ cronLastRun: new Date(now - 30_000).toISOString(), cronInterval: 60 });
      await scheduled({ active: false });
      await scheduled({ cronEnabled: false });

      const result = await scheduler().run('schedule');

      expect(result.workflows_checked).toBe(3);
      expect(result.executions.map((execution) => execution.workflowId).sort()).toEqual(
        due.map((workflow) => workflow.id).sort(),
      );
      expect(result.message).toBe(MESSAGES.scheduler.summary(3, 3));
      expect((await receiveAll(queues)).map((message) => message.workflowId).sort()).toEqual(
        due.map((workflow) => workflow.id).sort(),
      );
    });

    it('takes a workflow out of the index when scheduling or the workflow is switched off, and back in', async () => {
      const workflow = await scheduled();
      // Never ran: due from the moment it was scheduled (its creation here).
      expect(await storedSchedule(workflow.id)).toMatchObject({
        DueSK: `${workflow.updatedAt}#${workflow.id}`,
        cronNextRun: workflow.updatedAt,
      });

      await workflows.toggle(workflow.id, 'cronEnabled', app.clock.now().toISOString());
      expect(await storedSchedule(workflow.id)).not.toHaveProperty('DueSK');
      expect((await scheduler().run('schedule')).workflows_checked).toBe(0);

      await workflows.toggle(workflow.id, 'cronEnabled', app.clock.now().toISOString());
      await workflows.toggle(workflow.id, 'active', app.clock.now().toISOString());
      expect(await storedSchedule(workflow.id)).not.toHaveProperty('DuePK');

      await workflows.toggle(workflow.id, 'active', app.clock.now().toISOString());
      const result = await scheduler().run('schedule');
      expect(result.executions).toMatchObject([{ workflowId: workflow.id, status: 'queued' }]);
    });

    it('dates a first run from when an edit or a switch schedules the workflow, and keeps that date through later edits', async () => {
      const workflow = await scheduled({ cronEnabled: false });
      const switchedOn = new Date(app.clock.now().getTime() + minutes(5)).toISOString();
      await workflows.update(workflow.id, { cronEnabled: true }, switchedOn);
      expect(await storedSchedule(workflow.id)).toMatchObject({
        cronNextRun: switchedOn,
        DueSK: `${switchedOn}#${workflow.id}`,
      });

      await workflows.update(
        workflow.id,
        { name: 'Relance', cronInterval: 5 },
        app.clock.now().toISOString(),
      );
      expect(await storedSchedule(workflow.id)).toMatchObject({
        name: 'Relance',
        cronNextRun: switchedOn,
        DueSK: `${switchedOn}#${workflow.id}`,
      });
      expect((await workflows.getById(workflow.id))?.cronNextRun).toBe(switchedOn);
    });
  });

  describe('exactly once per due slot', () => {
    it("queues each due workflow once across an admin's overlapping runs (each claims before it sends)", async () => {
      const due = await Promise.all(Array.from({ length: 12 }, () => scheduled()));

      const runs = await Promise.all([
        scheduler().run('manual'),
        scheduler().run('manual'),
        scheduler().run('manual'),
      ]);

      const dispatched = runs.flatMap((run) =>
        run.executions.filter((execution) => execution.status === 'queued'),
      );
      expect(dispatched).toHaveLength(due.length);
      const messages = await receiveAll(queues);
      expect(messages).toHaveLength(due.length);
      expect(new Set(messages.map((message) => message.workflowId)).size).toBe(due.length);
      expect(new Set(messages.map((message) => message.dispatchId)).size).toBe(due.length);
    });

    it('sends each due workflow under one dispatch id across overlapping ticks and an admin run, for the worker to call once', async () => {
      const due = await Promise.all(Array.from({ length: 12 }, () => scheduled()));

      await Promise.all([
        scheduler().run('schedule'),
        scheduler().run('manual'),
        scheduler().run('schedule'),
      ]);

      // A tick sends before it claims (a claimer stopped in between loses nothing): a slot two runs
      // read may be queued twice, always under the dispatch id of that slot, which the worker's
      // done marker lets through once (scheduling-fan-out.test.ts follows it to the receiver).
      const messages = await receiveAll(queues);
      const dispatchIds = new Map<string, Set<string>>();
      for (const message of messages) {
        dispatchIds.set(
          message.workflowId,
          (dispatchIds.get(message.workflowId) ?? new Set()).add(message.dispatchId),
        );
      }
      expect([...dispatchIds.keys()].sort()).toEqual(due.map((workflow) => workflow.id).sort());
      expect([...dispatchIds.values()].map((ids) => ids.size)).toEqual(due.map(() => 1));
      // Claimed once: the next tick finds none of them due.
      expect((await scheduler().run('schedule')).workflows_checked).toBe(0);
    });

    it('sends a first run under one dispatch id when two ticks of different times read it before either claims', async () => {
      // A tick retried, or overlapping the next one: each has its own time. A due time taken from
      // the tick's clock made two dispatches of one first run, and the firm's n8n got both.
      const workflow = await scheduled({ cronEnabled: false });
      await workflows.toggle(workflow.id, 'cronEnabled', app.clock.now().toISOString());
      const shard = dueShardOf(workflow.id);
      let arrived = 0;
      let bothRead: () => void = () => undefined;
      const bothSending = new Promise<void>((resolve) => {
        bothRead = resolve;
      });
      // Each tick sends after its read and before its claim: holding the first send until the
      // second arrives makes both read the slot unclaimed.
      const meeting: DispatchQueue = {
        ...app.webhookQueue,
        sendBatch: async (entries) => {
          arrived += 1;
          if (arrived === 2) bothRead();
          await bothSending;
          return app.webhookQueue.sendBatch(entries);
        },
      };
      const tickAt = app.clock.now().getTime();

      const results = await Promise.all([
        scheduler(meeting).claimShard(shard, new Date(tickAt)),
        scheduler(meeting).claimShard(shard, new Date(tickAt - 1_500)),
      ]);

      expect(results.map((result) => result.checked)).toEqual([1, 1]);
      const messages = await receiveAll(queues);
      expect(messages).toHaveLength(2);
      expect(new Set(messages.map((message) => message.dispatchId)).size).toBe(1);
      expect((await scheduler().run('schedule')).workflows_checked).toBe(0);
    });

    it('does not dispatch a slot again until its next due time, then runs every interval (no burst)', async () => {
      const now = app.clock.now().getTime();
      const workflow = await scheduled({
        cronInterval: 2,
        cronLastRun: new Date(now - minutes(180)).toISOString(),
      });

      // Put in the schedule long after its last run: due from that write, once (no burst).
      const dueAt = (await storedSchedule(workflow.id)).cronNextRun as string;
      expect(dueAt <= new Date(now).toISOString()).toBe(true);
      // One claim takes that run and every run of the next ten minutes, each delayed to its due time.
      const first = await scheduler().run('schedule');
      expect(first.executions).toHaveLength(1);
      expect(await workflows.getById(workflow.id)).toMatchObject({
        cronNextRun: new Date(now + minutes(12)).toISOString(),
      });
      expect((await scheduler().run('schedule')).executions).toHaveLength(0);
      app.clock.advance(minutes(1));
      expect((await scheduler().run('schedule')).executions).toHaveLength(0);

      const messages = await receiveAll(queues);
      expect(messages.map((message) => message.dueAt)).toEqual([dueAt]);
      expect(await queueDepth(queues)).toMatchObject({ delayed: 5 });

      // The tick whose reach covers the next slot claims the next ten minutes.
      app.clock.advance(minutes(9));
      const next = await scheduler().run('schedule');
      expect(next.executions).toHaveLength(1);
      expect(next.executions[0]?.message).toBe(MESSAGES.scheduler.queuedWithDelay(120));
    });

    /** A repository whose edit reads the workflow, then a tick claims it, then the edit writes. */
    const claimedWhileEditing = () => {
      const racing = new WorkflowRepository(app.table);
      const read = racing.getById.bind(racing);
      racing.getById = async (id: string) => {
        const before = await read(id);
        await scheduler().run('schedule');
        return before;
      };
      return racing;
    };

    it('does not let an admin edit made during a claim make the claimed slot due again', async () => {
      const workflow = await scheduled();
      const racing = claimedWhileEditing();

      await expect(
        racing.update(workflow.id, { name: 'Renommée' }, app.clock.now().toISOString()),
      ).rejects.toThrow(WorkflowNotFoundError);
      await workflows.update(workflow.id, { name: 'Renommée' }, app.clock.now().toISOString());

      expect((await scheduler().run('schedule')).executions).toHaveLength(0);
      expect(await receiveAll(queues)).toHaveLength(1);
    });

    it('lets an edit of a field the schedule does not copy pass a claim, and the slot stays claimed', async () => {
      const workflow = await scheduled();
      const racing = claimedWhileEditing();

      // The description is on the workflow item alone: the claim wrote the schedule item only.
      await racing.update(workflow.id, { description: 'Relance modifiée' }, app.clock.now().toISOString());

      expect((await scheduler().run('schedule')).executions).toHaveLength(0);
      expect(await receiveAll(queues)).toHaveLength(1);
      expect(await workflows.getById(workflow.id)).toMatchObject({
        description: 'Relance modifiée',
        cronNextRun: expect.any(String),
      });
    });
  });

  describe('look-ahead', () => {
    it('sends a run due within the next minute now, delayed until its due time', async () => {
      const now = app.clock.now().getTime();
      const soon = await scheduled({ cronNextRun: new Date(now + 30_000).toISOString() });
      await scheduled({ cronNextRun: new Date(now + 150_000).toISOString() });

      const result = await scheduler().run('schedule');

      expect(result.workflows_checked).toBe(1);
      expect(result.executions).toEqual([
        {
          workflowId: soon.id,
          workflowName: soon.name,
          status: 'queued',
          message: MESSAGES.scheduler.queuedWithDelay(30),
        },
      ]);
      // Its runs of the next ten minutes, every two minutes from its due time, each delayed to it.
      expect(await queueDepth(queues)).toEqual({ visible: 0, inFlight: 0, delayed: 5, total: 5 });
      expect(await workflows.getById(soon.id)).toMatchObject({
        cronNextRun: new Date(now + 30_000 + minutes(10)).toISOString(),
      });
    });
  });

  describe('a send SQS refuses', () => {
    it('is reported failed and its slot given back, so the next tick dispatches it', async () => {
      const refused = await scheduled();
      const accepted = await scheduled();
      const flaky: DispatchQueue = {
        ...queues.dispatchQueue,
        sendBatch: async (entries) => {
          const keep = entries.filter((entry) => entry.message.workflowId !== refused.id);
          await queues.dispatchQueue.sendBatch(keep);
          return {
            failed: entries.flatMap((entry, index) =>
              entry.message.workflowId === refused.id ? [{ index, reason: 'InternalError' }] : [],
            ),
          };
        },
      };

      const first = await scheduler(flaky).run('schedule');

      expect(first.success).toBe(false);
      expect(first.error).toBe(MESSAGES.scheduler.someQueueFailures(1));
      expect(first.message).toBe(MESSAGES.scheduler.summary(1, 2));
      expect(first.executions).toContainEqual({
        workflowId: refused.id,
        workflowName: refused.name,
        status: 'failed',
        message: MESSAGES.scheduler.queueFailed,
      });
      const second = await scheduler().run('schedule');
      expect(second.executions).toMatchObject([{ workflowId: refused.id, status: 'queued' }]);
      expect((await receiveAll(queues)).map((message) => message.workflowId).sort()).toEqual(
        [refused.id, accepted.id].sort(),
      );
    });
  });

  describe('a claim the table refuses', () => {
    /** The scheduler on a table that refuses the claims of one workflow (a throttled write). */
    const refusingClaimsOf = (workflowId: string) =>
      schedulerServiceOf({
        table: {
          ...app.table,
          doc: {
            send: (command: { input: { Key?: { PK?: string }; UpdateExpression?: string } }) => {
              const claiming = command.input.UpdateExpression?.includes('DueSK = :next');
              if (claiming && command.input.Key?.PK === workflowKey(workflowId).PK) {
                return Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
              }
              return app.table.doc.send(command as never);
            },
          },
        } as unknown as TestApp['table'],
        queue: app.webhookQueue,
        clock: app.clock,
        logger: app.logger,
      });

    it("is reported failed in an admin's run without stopping the other claims, and stays due for the next tick", async () => {
      const unlucky = await scheduled();
      const lucky = await scheduled();

      const first = await refusingClaimsOf(unlucky.id).run('manual');

      expect(first.success).toBe(false);
      expect(first.executions).toContainEqual({
        workflowId: unlucky.id,
        workflowName: unlucky.name,
        status: 'failed',
        message: MESSAGES.scheduler.claimFailed,
      });
      expect(first.executions).toContainEqual(
        expect.objectContaining({ workflowId: lucky.id, status: 'queued' }),
      );
      const second = await scheduler().run('schedule');
      expect(second.executions).toMatchObject([{ workflowId: unlucky.id, status: 'queued' }]);
    });

    it('leaves the run queued in a tick (sent before its claim), and the next tick sends it again under the same dispatch id', async () => {
      const unlucky = await scheduled();

      const first = await refusingClaimsOf(unlucky.id).run('schedule');
      const second = await scheduler().run('schedule');

      expect(first.executions).toMatchObject([{ workflowId: unlucky.id, status: 'queued' }]);
      expect(second.executions).toMatchObject([{ workflowId: unlucky.id, status: 'queued' }]);
      const messages = await receiveAll(queues);
      expect(messages).toHaveLength(2);
      expect(new Set(messages.map((message) => message.dispatchId)).size).toBe(1);
      // Claimed by the second tick: the third finds nothing due.
      expect((await scheduler().run('schedule')).workflows_checked).toBe(0);
    });
  });

  describe('forced run', () => {
    it('clears the last run of every active, scheduled workflow and runs them all now', async () => {
      const now = app.clock.now().getTime();
      const all = [
        await scheduled({
          cronLastRun: new Date(now - 10_000).toISOString(),
          cronNextRun: new Date(now + minutes(5)).toISOString(),
        }),
        await scheduled({ cronNextRun: new Date(now + minutes(50)).toISOString() }),
        await scheduled(),
      ];
      await scheduled({ active: false });
      const before = await Promise.all(all.map((workflow) => workflows.getById(workflow.id)));

      const result = await scheduler().run('manual_force');

      expect(result.workflows_checked).toBe(3);
      expect(result.message).toBe(MESSAGES.scheduler.forcedSummary(3, 3));
      for (const [index, workflow] of all.entries()) {
        // Its schedule stays as it was: the runs already queued ahead of it still come.
        expect(before[index]?.cronNextRun).toEqual(expect.any(String));
        expect(await workflows.getById(workflow.id)).toMatchObject({
          cronLastRun: null,
          cronNextRun: before[index]?.cronNextRun,
        });
      }
      const messages = await receiveAll(queues);
      expect(messages).toHaveLength(3);
      expect(messages.every((message) => message.trigger === 'manual_force')).toBe(true);
      expect(messages.every((message) => message.dueAt === new Date(now).toISOString())).toBe(true);
    });
  });

  describe('admin routes', () => {
    it('runs the scheduler for an admin, keeps the result for the settings page, and refuses a lawyer', async () => {
      const admin = await issueAndSignIn(app, 'admin');
      const lawyer = await issueAndSignIn(app, 'lawyer');
      await scheduled();

      const refused = await callRoute(app, 'workflowScheduler', {
        token: lawyer.token,
        body: { trigger: 'manual' },
      });
      const run = await callRoute<SchedulerResult>(app, 'workflowScheduler', {
        token: admin.token,
        body: { trigger: 'manual', timestamp: app.clock.now().toISOString() },
      });
      const status = await callRoute<SchedulerStatusReply>(app, 'schedulerStatus', { token: admin.token });

      expect(refused.statusCode).toBe(403);
      expect(run.statusCode).toBe(200);
      expect(run.body).toMatchObject({
        success: true,
        timestamp: app.clock.now().toISOString(),
        workflows_checked: 1,
        message: MESSAGES.scheduler.summary(1, 1),
      });
      expect(run.body).not.toHaveProperty('trigger');
      expect(status.body).toEqual({
        lastScheduledRun: null,
        lastManualRun: { ...run.body, trigger: 'manual' },
        deadLetterCount: 0,
      });
    });

    it('refuses an unknown trigger', async () => {
      const admin = await issueAndSignIn(app, 'admin');

      const reply = await callRoute(app, 'workflowScheduler', {
        token: admin.token,
        body: { trigger: 'everything' },
      });

      expect(reply.statusCode).toBe(400);
    });

    it('says there is nothing to send back when the dead-letter queue is empty', async () => {
      const admin = await issueAndSignIn(app, 'admin');

      const reply = await callRoute(app, 'redriveDeadLetters', { token: admin.token });

      expect(reply).toMatchObject({
        statusCode: 200,
        body: { moved: 0, message: REDRIVE_MESSAGES.redriven(0) },
      });
    });
  });
});
