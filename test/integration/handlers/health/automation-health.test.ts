import { randomUUID } from 'node:crypto';

import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { HealthReadRepository } from '../../../../functions/data/health/health-reads';
import { HealthWriteRepository } from '../../../../functions/data/health/health-writes';
import { deliveryHourKey } from '../../../../functions/data/health/keys';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import type { MailPorts } from '../../../../functions/domain/core/ports';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { type AutomationHealth, healthHourOf } from '../../../../functions/domain/health/automation-health';
import type { CallOutcome, DispatchQueue, EndedCall } from '../../../../functions/domain/scheduling/ports';
import { migrateFailingSet } from '../../../../functions/migrations/failing-set-migration';
import { automationHealthOf, healthAlertsOf } from '../../../../functions/runtime/services/health';
import { schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import type { QueuePoller } from '../../../../lib/local/queue/poller';
import { DASHBOARD_FAILING_LISTED, HEALTH_LOOKUP_MAX } from '../../../../shared/constants';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import { MESSAGES } from '../../../../shared/messages';
import { REPORT_TEST_MESSAGES } from '../../../../shared/report-messages';
import type {
  ConnectionTestReply,
  HealthDashboard,
  HealthSettings,
  WorkflowHealthDetail,
  WorkflowHealthList,
} from '../../../../shared/schemas/health';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, MemoryMailer, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn } from '../../../support/directory';
import { workflowRecord } from '../../../support/records';
import {
  eventually,
  queueDepth,
  type ReceiverBehaviour,
  startTestReceiver,
  startWorkerPoller,
  type TestReceiver,
} from '../../../support/scheduling';

const SENDER = 'Assistant IA juridique <alertes@cabinet.test>';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Automation health end to end on real parts: DynamoDB Local, the local queue (fauxqs) with the
 * poller playing the event source, a real HTTP receiver. Retries come at once (the back-off asked
 * for is shortened to nothing), so five failed due runs are 25 calls in a few seconds.
 */
describe('automation health', () => {
  let base: TestApp;
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let poller: QueuePoller | undefined;
  let behaviour: ReceiverBehaviour;
  let mailer: MemoryMailer;

  beforeEach(async () => {
    behaviour = () => ({ status: 500 });
    mailer = new MemoryMailer();
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    base = await createTestApp(inject('dynamoEndpoint'));
    const queue: DispatchQueue = {
      ...queues.dispatchQueue,
      changeVisibility: (receiptHandle) => queues.dispatchQueue.changeVisibility(receiptHandle, 0),
    };
    const mail: MailPorts = { mailer, sender: SENDER, publicUrl: () => 'https://app.cabinet.test' };
    app = { ...base, webhookQueue: queue, mail, adminAlertEmail: 'astreinte@cabinet.test' };
    receiver = await startTestReceiver(app, (path, index) => behaviour(path, index));
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(base);
  });

  const health = () => new HealthReadRepository(app.table);
  const healthWrites = () => new HealthWriteRepository(app.table);
  /** One call's end, as the worker or a manual run reports it. */
  const ended = (recorder: AutomationHealth, workflow: WorkflowRecord, call: EndedCall) =>
    recorder.callsEnded([{ workflow, call }]);
  /** A manual call that failed now with a 500; a test names what it is about. */
  const failedCall = (overrides: Partial<EndedCall> = {}): EndedCall => ({
    trigger: 'manual',
    outcome: 'failed',
    attempt: 1,
    startedAt: app.clock.now().toISOString(),
    durationMs: 10,
    dueAt: null,
    httpStatus: 500,
    message: 'x',
    ...overrides,
  });
  /**
   * The keys written through the table's client while `work` runs: a spy on the real client, the
   * writes still go to DynamoDB Local.
   */
  async function keysWritten(work: () => Promise<unknown>): Promise<{ PK: string; SK: unknown }[]> {
    const written: { PK: string; SK: unknown }[] = [];
    const name = `keys-written-${randomUUID()}`;
    app.table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as {
          Key?: { PK?: unknown; SK?: unknown };
          Item?: { PK?: unknown; SK?: unknown };
        };
        const key = input.Key ?? input.Item;
        if (context.commandName !== 'GetItemCommand' && typeof key?.PK === 'string')
          written.push({ PK: key.PK, SK: key.SK });
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await work();
    } finally {
      app.table.doc.middlewareStack.remove(name);
    }
    return written;
  }
  const tick = () =>
    schedulerServiceOf({
      table: app.table,
      queue: app.webhookQueue,
      clock: app.clock,
      logger: app.logger,
    }).run('schedule');
  const drained = async () => (await queueDepth(queues)).total === 0 && poller?.inFlight === 0;

  /** Starts a run with `start` (a tick, or a switch that schedules the workflow) and waits for its end. */
  async function runEnded(workflow: WorkflowRecord, start: () => Promise<unknown>, what: string) {
    poller ??= startWorkerPoller(queues, app);
    const before = (await new ExecutionRepository(app.table).listByWorkflow(workflow.id, 100)).items.length;
    await start();
    await eventually(async () => {
      const after = (await new ExecutionRepository(app.table).listByWorkflow(workflow.id, 100)).items;
      return after.length > before && (await drained());
    }, what);
  }

  /** Runs `runs` due runs one after the other, each to its end, the clock moved an interval each time. */
  async function dueRuns(workflow: WorkflowRecord, runs: number) {
    for (let run = 0; run < runs; run += 1) {
      await runEnded(workflow, tick, `exécution ${run + 1} terminée`);
      app.clock.advance(15 * 60_000);
    }
  }

  async function lawyerWithWorkflow(path: string) {
    const admin = await issueAndSignIn(app, 'admin');
    const lawyer = await createSignedInLawyer(app, admin.token);
    // Every quarter of an hour, beyond a claim's ten minutes: each tick queues exactly one run.
    const workflow = workflowRecord({
      lawyerEmail: lawyer.email,
      cronEnabled: true,
      cronInterval: 15,
      webhookUrl: `${receiver.baseUrl}${path}`,
    });
    await new WorkflowRepository(app.table).create(workflow);
    return { admin, lawyer, workflow };
  }

  it('pauses after 5 failed due runs and sends the two e-mails once', { timeout: 90_000 }, async () => {
    const { lawyer, workflow } = await lawyerWithWorkflow('/panne');

    await dueRuns(workflow, 4);
    expect((await new WorkflowRepository(app.table).getById(workflow.id))?.cronEnabled).toBe(true);
    expect(mailer.sent).toHaveLength(0);
    await dueRuns(workflow, 1);

    // Each due run was tried 5 times (4 retries, then the dead-letter queue): 25 calls.
    expect(receiver.callsOn('/panne')).toHaveLength(25);
    expect((await new WorkflowRepository(app.table).getById(workflow.id))?.cronEnabled).toBe(false);
    const seen = await callRoute<WorkflowHealthDetail>(app, 'workflowHealth', {
      token: lawyer.token,
      params: { id: workflow.id },
    });
    expect(seen.body).toMatchObject({
      state: 'paused',
      consecutiveFailures: 5,
      lastFailureStatus: 500,
      pauseReason: HEALTH_MESSAGES.pauseReason(5, MESSAGES.execution.serverError),
      last24Hours: { runs: 5, succeeded: 0, successRate: 0 },
    });
    expect(mailer.sent.map((message) => message.to).sort()).toEqual(
      ['astreinte@cabinet.test', lawyer.email].sort(),
    );
    for (const message of mailer.sent) {
      expect(message.subject).toBe(HEALTH_MESSAGES.email.pausedSubject(workflow.name));
      expect(message.text).toContain(HEALTH_MESSAGES.email.lastError(MESSAGES.execution.serverError));
    }
    expect(mailer.sent.find((message) => message.to === lawyer.email)?.text).toContain(
      'https://app.cabinet.test/lawyer/workflows',
    );

    // Resumed (its run due now leaves at once, before any tick) and failing again the same day:
    // paused again at once, but no second e-mail.
    let resumed: Awaited<ReturnType<typeof callRoute<Workflow>>> | undefined;
    await runEnded(
      workflow,
      async () => {
        resumed = await callRoute<Workflow>(app, 'resumeWorkflow', {
          token: lawyer.token,
          params: { id: workflow.id },
        });
      },
      'exécution après reprise terminée',
    );
    expect(resumed?.statusCode).toBe(200);
    expect(resumed?.body.cronSettings.enabled).toBe(true);
    expect((await new WorkflowRepository(app.table).getById(workflow.id))?.cronEnabled).toBe(false);
    expect(mailer.sent).toHaveLength(2);
  });

  it('a 404 pauses with the n8n hint, at the threshold the admin set', async () => {
    behaviour = () => ({ status: 404 });
    const { admin, workflow } = await lawyerWithWorkflow('/inactif');
    const saved = await callRoute<HealthSettings>(app, 'updateHealthSettings', {
      token: admin.token,
      body: { pauseAfterFailures: 2, alertEmail: 'Veille@Cabinet.test', dailyDigest: true },
    });
    expect(saved.statusCode).toBe(200);

    await dueRuns(workflow, 2);

    // A 404 is final: one call per run.
    expect(receiver.callsOn('/inactif')).toHaveLength(2);
    const summary = await health().summary(workflow.id);
    expect(summary.pauseReason).toBe(
      `${HEALTH_MESSAGES.pauseReason(2, MESSAGES.execution.notFoundInactive)}. ${HEALTH_MESSAGES.inactiveHint}`,
    );
    expect(mailer.sent.map((message) => message.to)).toContain('veille@cabinet.test');
    const audit = await callRoute<{ entries: { action: string }[] }>(app, 'listAudit', {
      token: admin.token,
    });
    expect(audit.body.entries.map((entry) => entry.action)).toContain('health.settings.update');
  });

  it('the first success after Reprendre brings it back to healthy and off the dashboard', async () => {
    const { admin, workflow } = await lawyerWithWorkflow('/reparee');
    await callRoute(app, 'updateHealthSettings', {
      token: admin.token,
      body: { pauseAfterFailures: 2, alertEmail: null, dailyDigest: false },
    });
    await dueRuns(workflow, 2);
    const failing = await callRoute<HealthDashboard>(app, 'healthDashboard', { token: admin.token });
    expect(failing.body.failing).toMatchObject([{ workflowId: workflow.id, state: 'paused' }]);
    expect(failing.body.hours.at(-1)).toMatchObject({ retried: 8, deadLettered: 2, succeeded: 0 });

    // Manual runs still work while paused.
    behaviour = () => ({ status: 200 });
    const manual = await callRoute(app, 'executeWebhook', {
      token: admin.token,
      body: { workflowId: workflow.id },
    });
    expect(manual.body).toMatchObject({ success: true });
    const stillPaused = await callRoute<WorkflowHealthDetail>(app, 'workflowHealth', {
      token: admin.token,
      params: { id: workflow.id },
    });
    expect(stillPaused.body.state).toBe('paused');

    // Reprendre sends its run due now at once: no tick needed.
    await runEnded(
      workflow,
      () => callRoute(app, 'resumeWorkflow', { token: admin.token, params: { id: workflow.id } }),
      'exécution après reprise terminée',
    );

    const healed = await callRoute<WorkflowHealthDetail>(app, 'workflowHealth', {
      token: admin.token,
      params: { id: workflow.id },
    });
    expect(healed.body).toMatchObject({ state: 'healthy', consecutiveFailures: 0, pausedAt: null });
    const after = await callRoute<HealthDashboard>(app, 'healthDashboard', { token: admin.token });
    expect(after.body.failing).toEqual([]);
    const audit = await callRoute<{ entries: { action: string }[] }>(app, 'listAudit', {
      token: admin.token,
    });
    expect(audit.body.entries.map((entry) => entry.action)).toContain('workflow.resume');
  });

  it('counts every call of runs ending at once (atomic counters)', async () => {
    const workflow = workflowRecord();
    await new WorkflowRepository(app.table).create(workflow);
    const outcomes = fc.sample(
      fc.array(fc.constantFrom<CallOutcome>('succeeded', 'retried', 'failed', 'deadLettered'), {
        minLength: 20,
        maxLength: 40,
      }),
      { numRuns: 1, seed: 16 },
    )[0] as CallOutcome[];
    const recorder = automationHealthOf(app);
    const startedAt = app.clock.now().toISOString();

    await Promise.all(
      outcomes.map((outcome) =>
        ended(recorder, workflow, {
          trigger: 'manual',
          outcome,
          attempt: 1,
          startedAt,
          durationMs: 120,
          dueAt: null,
          httpStatus: outcome === 'succeeded' ? 200 : 500,
          message: 'x',
        }),
      ),
    );

    const [hour] = await health().workflowHours(workflow.id, healthHourOf(app.clock.now()));
    const tally = (outcome: CallOutcome) => outcomes.filter((each) => each === outcome).length;
    expect(hour?.counts).toMatchObject({
      ...(tally('succeeded') ? { succeeded: tally('succeeded') } : {}),
      ...(tally('retried') ? { retried: tally('retried') } : {}),
      ...(tally('failed') ? { failed: tally('failed') } : {}),
      ...(tally('deadLettered') ? { deadLettered: tally('deadLettered') } : {}),
      duration1: outcomes.length,
    });
    // Only failures: the streak counts each of them, none lost to a concurrent write.
    const streak = workflowRecord();
    await new WorkflowRepository(app.table).create(streak);
    await Promise.all(Array.from({ length: 30 }, () => ended(recorder, streak, failedCall({ startedAt }))));
    expect((await health().summary(streak.id)).consecutiveFailures).toBe(30);
  });

  it("adds each call to one shard of everyone's hour, and the admin's dashboard sums the shards and the key of before", async () => {
    const admin = await issueAndSignIn(app, 'admin');
    const workflows = Array.from({ length: 40 }, () => workflowRecord());
    await Promise.all(workflows.map((workflow) => new WorkflowRepository(app.table).create(workflow)));
    const now = app.clock.now();
    // Counts of the hour written under the single key, before the sharding.
    await app.table.doc.send(
      new UpdateCommand({
        TableName: app.table.name,
        Key: deliveryHourKey('HEALTH#ALL', healthHourOf(now)),
        UpdateExpression: 'ADD succeeded :succeeded, failed :failed',
        ExpressionAttributeValues: { ':succeeded': 3, ':failed': 1 },
      }),
    );
    const recorder = automationHealthOf(app);

    const written = await keysWritten(() =>
      Promise.all(
        workflows.map((workflow, index) =>
          ended(recorder, workflow, {
            trigger: 'manual',
            outcome: index < 30 ? 'succeeded' : 'failed',
            attempt: 1,
            startedAt: now.toISOString(),
            durationMs: 80,
            dueAt: null,
            httpStatus: index < 30 ? 200 : 500,
            message: 'x',
          }),
        ),
      ),
    );

    const dashboard = await callRoute<HealthDashboard>(app, 'healthDashboard', { token: admin.token });
    expect(dashboard.body.hours.at(-1)).toMatchObject({ succeeded: 33, failed: 11, retried: 0 });
    const shards = new Set(
      written.map(({ PK }) => PK).filter((partition) => partition.startsWith('HEALTH#ALL')),
    );
    expect(shards.size).toBeGreaterThan(1);
    expect(shards.has('HEALTH#ALL')).toBe(false);
    // The successes of healthy workflows leave the failing set alone: only the 10 failures wrote there.
    expect(written.filter(({ SK }) => SK === 'FAILING')).toHaveLength(10);
  });

  it('a success that ends a streak takes the workflow out of the failing set', async () => {
    const workflow = workflowRecord();
    await new WorkflowRepository(app.table).create(workflow);
    const recorder = automationHealthOf(app);
    const end = (outcome: CallOutcome) =>
      ended(recorder, workflow, {
        trigger: 'manual',
        outcome,
        attempt: 1,
        startedAt: app.clock.now().toISOString(),
        durationMs: 80,
        dueAt: null,
        httpStatus: outcome === 'succeeded' ? 200 : 500,
        message: 'x',
      });

    await end('failed');
    expect(await health().longestStreaks()).toMatchObject({
      longest: [{ workflowId: workflow.id, consecutiveFailures: 1 }],
      total: 1,
    });
    await end('failed');
    expect(await health().longestStreaks()).toMatchObject({
      longest: [{ workflowId: workflow.id, consecutiveFailures: 2 }],
      total: 1,
    });
    await end('succeeded');
    expect(await health().longestStreaks()).toEqual({ longest: [], total: 0 });
  });

  it('a failing workflow leaves the failing set when it is deleted, alone or with its lawyer', async () => {
    const workflows = new WorkflowRepository(app.table);
    const alone = workflowRecord();
    const owned = [
      workflowRecord({ lawyerEmail: 'owner@example.com' }),
      workflowRecord({ lawyerEmail: 'owner@example.com' }),
    ];
    const recorder = automationHealthOf(app);
    for (const workflow of [alone, ...owned]) {
      await workflows.create(workflow);
      await ended(recorder, workflow, failedCall());
    }
    expect((await health().longestStreaks()).total).toBe(3);

    await workflows.delete(alone.id);
    const left = await health().longestStreaks();
    expect(left.longest.map((item) => item.workflowId).sort()).toEqual(
      owned.map((workflow) => workflow.id).sort(),
    );
    expect(left.total).toBe(2);
    await workflows.deleteByOwner('owner@example.com');
    expect(await health().longestStreaks()).toEqual({ longest: [], total: 0 });
  });

  it('lists the 50 longest failure streaks of an outage and counts them all, for the admin and the lawyer', async () => {
    const { admin, lawyer } = await lawyerWithWorkflow('/ok');
    // 60 of his automations failing at once: 50 of them twice, 10 once.
    const failing = Array.from({ length: 60 }, () => workflowRecord({ lawyerEmail: lawyer.email }));
    await Promise.all(failing.map((workflow) => new WorkflowRepository(app.table).create(workflow)));
    const recorder = automationHealthOf(app);
    const fail = (workflow: WorkflowRecord) =>
      ended(recorder, workflow, failedCall({ httpStatus: 503, message: 'n8n indisponible' }));
    await Promise.all(failing.map(fail));
    await Promise.all(failing.slice(0, 50).map(fail));
    const longest = failing
      .slice(0, 50)
      .map((workflow) => workflow.id)
      .sort();

    for (const token of [admin.token, lawyer.token]) {
      const dashboard = await callRoute<HealthDashboard>(app, 'healthDashboard', { token });
      expect(dashboard.statusCode).toBe(200);
      expect(dashboard.body.failingTotal).toBe(60);
      expect(dashboard.body.failing.map((item) => item.workflowId).sort()).toEqual(longest);
      expect(dashboard.body.failing.every((item) => item.consecutiveFailures === 2)).toBe(true);
    }
  });

  it('reads the longest streaks from the shards of the failing set, whatever the streaks and their spread', async () => {
    const repository = health();
    const writes = healthWrites();
    const record = fc.record({
      consecutiveFailures: fc.integer({ min: 1, max: 12 }),
      minute: fc.integer({ min: 0, max: 59 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 0, maxLength: 90 }), async (drawn) => {
        const records = drawn.map(({ consecutiveFailures, minute }) => ({
          workflowId: randomUUID(),
          workflowName: 'Relance',
          consecutiveFailures,
          lastFailureAt: `2026-11-26T10:${String(minute).padStart(2, '0')}:00.000Z`,
          lastFailureMessage: 'HTTP 503',
        }));
        await Promise.all(records.map((each) => writes.markFailing(each)));
        try {
          const { longest, total } = await repository.longestStreaks();
          expect(total).toBe(records.length);
          // The longest streaks, the latest failure first among equal ones (the id settles the rest).
          const descending = (left: string, right: string) => (left < right ? 1 : left > right ? -1 : 0);
          const expected = [...records]
            .sort(
              (left, right) =>
                right.consecutiveFailures - left.consecutiveFailures ||
                descending(left.lastFailureAt, right.lastFailureAt) ||
                descending(left.workflowId, right.workflowId),
            )
            .slice(0, DASHBOARD_FAILING_LISTED);
          expect(longest).toEqual(expected);
        } finally {
          await Promise.all(records.map((each) => writes.clearFailing(each.workflowId)));
        }
      }),
      { numRuns: 8, seed: 26 },
    );
  });

  it('npm run migrate moves the failing set of before to its shards, from the current summaries', async () => {
    const workflows = new WorkflowRepository(app.table);
    const recorder = automationHealthOf(app);
    const stillFailing = workflowRecord();
    const recovered = workflowRecord();
    const deleted = workflowRecord();
    const failedSince = workflowRecord();
    for (const workflow of [stillFailing, recovered, deleted, failedSince]) await workflows.create(workflow);
    // Their streaks as the runs kept them since the deploy.
    const failure = (workflowId: string) =>
      healthWrites().recordRunEnd({
        workflowId,
        startedAt: '2026-11-26T09:00:00.000Z',
        setsLastRun: true,
        streak: 'failure',
        retried: false,
        count: null,
      });
    for (let attempt = 0; attempt < 3; attempt++) await failure(stillFailing.id);
    await failure(deleted.id);
    await healthWrites().recordFailure(stillFailing.id, {
      at: '2026-11-26T09:00:00.000Z',
      message: 'HTTP 503',
      httpStatus: 503,
    });
    await ended(recorder, failedSince, failedCall({ message: 'depuis' }));
    await workflows.delete(deleted.id);
    // The items of the former single partition, written before the deploy.
    const former = (workflow: WorkflowRecord) => ({
      PK: 'HEALTH#FAILING',
      SK: workflow.id,
      entity: 'FailingWorkflow',
      workflowId: workflow.id,
      // Renamed since: the moved line takes the name of today.
      workflowName: 'Ancien nom',
      consecutiveFailures: 1,
      lastFailureAt: '2026-11-25T08:00:00.000Z',
      lastFailureMessage: 'avant',
    });
    await Promise.all(
      [stillFailing, recovered, deleted, failedSince].map((workflow) =>
        app.table.doc.send(new PutCommand({ TableName: app.table.name, Item: former(workflow) })),
      ),
    );

    expect(await migrateFailingSet(app.table, 2)).toEqual({ read: 4, moved: 1, dropped: 3 });
    const { longest, total } = await health().longestStreaks();
    expect(total).toBe(2);
    expect(longest).toEqual([
      {
        workflowId: stillFailing.id,
        workflowName: stillFailing.name,
        consecutiveFailures: 3,
        lastFailureAt: '2026-11-26T09:00:00.000Z',
        lastFailureMessage: 'HTTP 503',
      },
      expect.objectContaining({
        workflowId: failedSince.id,
        consecutiveFailures: 1,
        lastFailureMessage: 'depuis',
      }),
    ]);
    // Run again: nothing left in the former partition.
    expect(await migrateFailingSet(app.table)).toEqual({ read: 0, moved: 0, dropped: 0 });
  });

  it('answers a look-up of ids that are not 1 to 50 automation ids with a 400 naming « ids »', async () => {
    const { lawyer } = await lawyerWithWorkflow('/a');
    const tooMany = Array.from({ length: HEALTH_LOOKUP_MAX + 1 }, () => randomUUID()).join(',');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constant(undefined),
          fc.constant(''),
          fc.constant(tooMany),
          fc.string({ maxLength: 80 }).filter((text) => text.split(',').some((id) => !UUID.test(id))),
        ),
        async (ids) => {
          const reply = await callRoute(app, 'workflowsHealth', {
            token: lawyer.token,
            query: ids === undefined ? {} : { ids },
          });
          expect(reply).toMatchObject({ statusCode: 400, body: { error: MESSAGES.request.invalidIds } });
        },
      ),
      { numRuns: 30, seed: 50 },
    );
  });

  it('a member sees only his own health', async () => {
    const { admin, lawyer, workflow } = await lawyerWithWorkflow('/a');
    const other = await createSignedInLawyer(app, admin.token);
    const theirs = workflowRecord({ lawyerEmail: other.email, webhookUrl: `${receiver.baseUrl}/b` });
    await new WorkflowRepository(app.table).create(theirs);
    await ended(automationHealthOf(app), theirs, failedCall({ message: 'panne' }));

    // His card's health comes back; another's, asked for by id, is left out as a deleted one is.
    const list = await callRoute<WorkflowHealthList>(app, 'workflowsHealth', {
      token: lawyer.token,
      query: { ids: `${workflow.id},${theirs.id},${randomUUID()}` },
    });
    expect(list.body.workflows.map((item) => item.workflowId)).toEqual([workflow.id]);
    const adminList = await callRoute<WorkflowHealthList>(app, 'workflowsHealth', {
      token: admin.token,
      query: { ids: `${workflow.id},${theirs.id}` },
    });
    expect(adminList.body.workflows.map((item) => item.workflowId).sort()).toEqual(
      [workflow.id, theirs.id].sort(),
    );
    expect(adminList.body.workflows.find((item) => item.workflowId === theirs.id)).toMatchObject({
      state: 'degraded',
      lastFailureMessage: 'panne',
    });
    for (const name of ['workflowHealth', 'resumeWorkflow', 'testWorkflowConnection'] as const) {
      const refused = await callRoute(app, name, { token: lawyer.token, params: { id: theirs.id } });
      expect(refused).toMatchObject({ statusCode: 404, body: { error: MESSAGES.workflow.notFound } });
    }
    const dashboard = await callRoute<HealthDashboard>(app, 'healthDashboard', { token: lawyer.token });
    expect(dashboard.body.failing).toEqual([]);
    expect(dashboard.body.hours.every((hour) => hour.failed === 0)).toBe(true);
    expect(dashboard.body.failingTotal).toBe(0);
    const adminView = await callRoute<HealthDashboard>(app, 'healthDashboard', { token: admin.token });
    expect(adminView.body.failing.map((item) => item.workflowId)).toEqual([theirs.id]);
    expect(adminView.body.failingTotal).toBe(1);
    const settings = await callRoute(app, 'healthSettings', { token: lawyer.token });
    expect(settings.statusCode).toBe(403);
  });

  it('tests the connection with a signed call marked as a test, recorded but not counted', async () => {
    behaviour = (path) => ({ status: path === '/absent' ? 404 : 204 });
    const { lawyer, workflow } = await lawyerWithWorkflow('/ok');
    const broken = workflowRecord({ lawyerEmail: lawyer.email, webhookUrl: `${receiver.baseUrl}/absent` });
    await new WorkflowRepository(app.table).create(broken);

    const ok = await callRoute<ConnectionTestReply>(app, 'testWorkflowConnection', {
      token: lawyer.token,
      params: { id: workflow.id },
    });
    const notFound = await callRoute<ConnectionTestReply>(app, 'testWorkflowConnection', {
      token: lawyer.token,
      params: { id: broken.id },
    });

    // The receiver answers without posting the test's completion report: the result says so.
    expect(ok.body).toEqual({
      success: true,
      status: 204,
      message: `${HEALTH_MESSAGES.testSucceeded(204)}. ${REPORT_TEST_MESSAGES.notReported(5)}`,
    });
    expect(notFound.body).toEqual({
      success: false,
      status: 404,
      message: `${MESSAGES.execution.notFoundInactive}. ${HEALTH_MESSAGES.inactiveHint}`,
    });
    const [call] = receiver.callsOn('/ok');
    expect(call?.signatureValid).toBe(true);
    expect(call?.body).toMatchObject({ workflowId: workflow.id, trigger: 'test', test: true });
    const [recorded] = (await new ExecutionRepository(app.table).listByWorkflow(broken.id, 10)).items;
    expect(recorded).toMatchObject({ trigger: 'test', outcome: 'failed', httpStatus: 404 });
    expect(await health().workflowHours(broken.id, '0000')).toEqual([]);
    expect((await health().summary(broken.id)).consecutiveFailures).toBe(0);
    expect((await new WorkflowRepository(app.table).getById(broken.id))?.cronLastRun).toBeNull();
  });

  it("sends the admin's daily digest once a day, when he asked for it and something fails", async () => {
    const admin = await issueAndSignIn(app, 'admin');
    const failing = workflowRecord({ name: 'Classement bloqué' });
    await new WorkflowRepository(app.table).create(failing);
    await ended(automationHealthOf(app), failing, failedCall({ message: MESSAGES.execution.serverError }));
    const alerts = healthAlertsOf({ ...app, mail: app.mail as MailPorts });

    await alerts.dailyDigest();
    expect(mailer.sent).toHaveLength(0);

    await callRoute(app, 'updateHealthSettings', {
      token: admin.token,
      body: { pauseAfterFailures: 5, alertEmail: 'veille@cabinet.test', dailyDigest: true },
    });
    await alerts.dailyDigest();
    await alerts.dailyDigest();

    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({
      to: 'veille@cabinet.test',
      subject: HEALTH_MESSAGES.email.digestSubject(1),
    });
    expect(mailer.sent[0]?.text).toContain('Classement bloqué');
  });

  it('lists the 50 longest streaks in the digest of an outage and counts the others', async () => {
    const admin = await issueAndSignIn(app, 'admin');
    await callRoute(app, 'updateHealthSettings', {
      token: admin.token,
      body: { pauseAfterFailures: 5, alertEmail: null, dailyDigest: true },
    });
    // 55 failing automations: 'Longue série …' twice, the other 5 once.
    const failing = Array.from({ length: 55 }, (_, index) =>
      workflowRecord({ name: index < 50 ? `Longue série ${index}` : `Courte série ${index}` }),
    );
    await Promise.all(failing.map((workflow) => new WorkflowRepository(app.table).create(workflow)));
    const recorder = automationHealthOf(app);
    await Promise.all(failing.map((workflow) => ended(recorder, workflow, failedCall())));
    await Promise.all(failing.slice(0, 50).map((workflow) => ended(recorder, workflow, failedCall())));

    await healthAlertsOf({ ...app, mail: app.mail as MailPorts }).dailyDigest();

    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.subject).toBe(HEALTH_MESSAGES.email.digestSubject(55));
    const lines = (mailer.sent[0]?.text ?? '').split('\n').filter((line) => line.startsWith('- '));
    expect(lines).toHaveLength(51);
    expect(lines.slice(0, 50).every((line) => line.startsWith('- Longue série '))).toBe(true);
    expect(lines[50]).toBe(HEALTH_MESSAGES.email.digestMore(5));
  });

  it('refuses bad settings with a French message naming the field', async () => {
    const admin = await issueAndSignIn(app, 'admin');
    const reply = await callRoute(app, 'updateHealthSettings', {
      token: admin.token,
      body: { pauseAfterFailures: 0, alertEmail: null, dailyDigest: false },
    });
    expect(reply.statusCode).toBe(400);
    expect(JSON.stringify(reply.body)).toContain(MESSAGES.validation.pauseAfterFailures);
    const defaults = await callRoute<HealthSettings>(app, 'healthSettings', { token: admin.token });
    expect(defaults.body).toEqual({
      pauseAfterFailures: 5,
      alertEmail: null,
      dailyDigest: false,
      deploymentAlertEmail: 'astreinte@cabinet.test',
    });
  });
});
