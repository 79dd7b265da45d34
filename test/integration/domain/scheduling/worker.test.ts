import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { meterTable } from '../../../../bench/capacity';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import { runEndKey } from '../../../../functions/data/scheduling/keys';
import { METRIC } from '../../../../functions/domain/core/metrics';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type { DispatchQueue } from '../../../../functions/domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../../../functions/domain/scheduling/scheduling-settings';
import { createWebhookWorkerHandler } from '../../../../functions/handlers/scheduling/webhook-worker';
import { schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import { type QueuePoller, startQueuePoller } from '../../../../lib/local/queue/poller';
import { GLOBAL_SCHEDULING } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import { REDRIVE_MESSAGES } from '../../../../shared/report-messages';
import type { Execution, RedriveReply } from '../../../../shared/schemas/scheduler';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn } from '../../../support/directory';
import { workflowRecord } from '../../../support/records';
import {
  eventually,
  heldSlots,
  queueDepth,
  type ReceiverBehaviour,
  receiveAll,
  startTestReceiver,
  type TestReceiver,
} from '../../../support/scheduling';

/**
 * The worker behind the real queue: fauxqs, the poller that plays the Lambda event source, a real
 * HTTP receiver on 127.0.0.1. The back-off the worker asks for is recorded and then shortened to
 * nothing, so that retries come at once instead of after seconds.
 */
describe('webhook worker', () => {
  let base: TestApp;
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let poller: QueuePoller | undefined;
  let behaviour: ReceiverBehaviour;
  const backoffs: number[] = [];

  beforeEach(async () => {
    backoffs.length = 0;
    behaviour = () => ({ status: 200 });
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    base = await createTestApp(inject('dynamoEndpoint'));
    const queue: DispatchQueue = {
      ...queues.dispatchQueue,
      changeVisibility: async (receiptHandle, seconds) => {
        backoffs.push(seconds);
        await queues.dispatchQueue.changeVisibility(receiptHandle, 0);
      },
    };
    app = { ...base, webhookQueue: queue };
    receiver = await startTestReceiver(app, (path, index) => behaviour(path, index));
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(base);
  });

  const startPoller = () => {
    poller = startQueuePoller({
      client: queues.client,
      queueUrl: queues.queueUrl,
      handler: createWebhookWorkerHandler(app),
      maxConcurrency: GLOBAL_SCHEDULING.maxConcurrentWorkflows,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: app.logger,
    });
  };
  const tick = (trigger: 'schedule' | 'manual_force' = 'schedule') =>
    schedulerServiceOf({
      table: app.table,
      queue: app.webhookQueue,
      clock: app.clock,
      logger: app.logger,
    }).run(trigger);
  const drained = async () => (await queueDepth(queues)).total === 0 && poller?.inFlight === 0;

  async function scheduled(path: string, overrides: Partial<WorkflowRecord> = {}) {
    // Hourly: a tick queues its first run alone (a claim takes the runs of the next ten minutes).
    const record = workflowRecord({
      cronEnabled: true,
      cronInterval: 60,
      webhookUrl: `${receiver.baseUrl}${path}`,
      ...overrides,
    });
    await new WorkflowRepository(app.table).create(record);
    return record;
  }
  const history = async (workflowId: string) =>
    (await new ExecutionRepository(app.table).listByWorkflow(workflowId, 100)).items;
  const byAttempt = (executions: Execution[]) => [...executions].sort((a, b) => a.attempt - b.attempt);

  it('delivers a due run once, signed, and records it with the last run', async () => {
    const workflow = await scheduled('/ok');
    startPoller();

    await tick();
    await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel livré');

    const [call] = receiver.calls;
    expect(call?.signatureValid).toBe(true);
    expect(call?.headers['content-type']).toBe('application/json');
    // Never ran: due from when it was scheduled (created, here).
    expect(call?.headers['webhook-id']).toBe(`${workflow.id}:${workflow.updatedAt}`);
    expect(call?.body).toEqual({
      workflowId: workflow.id,
      workflowName: workflow.name,
      type: workflow.type,
      trigger: 'schedule',
      dueAt: workflow.updatedAt,
      timestamp: app.clock.now().toISOString(),
      source: 'notary_app',
      // The run's completion-report link, and the run named as the webhook-id names it.
      report: {
        url: expect.stringMatching(/^http:\/\/localhost:3000\/api\/reports\/[\w-]+\.[\w-]+$/),
        runId: call?.headers['webhook-id'],
      },
    });
    expect(await history(workflow.id)).toMatchObject([
      {
        trigger: 'schedule',
        outcome: 'success',
        httpStatus: 200,
        attempt: 1,
        message: MESSAGES.workflow.workflowExecuted,
      },
    ]);
    expect((await history(workflow.id))[0]).not.toHaveProperty('retry');
    expect(await new WorkflowRepository(app.table).getById(workflow.id)).toMatchObject({
      cronLastRun: app.clock.now().toISOString(),
    });
  });

  it('reads the workflow and the run’s done marker in one call before calling', async () => {
    await scheduled('/ok');
    await tick();
    // Every DynamoDB command of the worker, from the message's receipt to its end.
    const commands: string[] = [];
    const name = 'worker-commands';
    app.table.doc.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(context.commandName ?? '');
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      startPoller();
      await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel livré');
    } finally {
      app.table.doc.middlewareStack.remove(name);
    }

    // One BatchGetItem instead of two GetItems: each call fewer is time off every message.
    expect(commands.filter((command) => command.includes('Get'))).toEqual(['BatchGetItemCommand']);
  });

  it('retries a receiver answering 500 then 200, with the same webhook-id', async () => {
    behaviour = (_path, index) => ({ status: index === 0 ? 500 : 200 });
    const workflow = await scheduled('/flaky');
    startPoller();

    await tick();
    await eventually(async () => receiver.calls.length === 2 && (await drained()), 'nouvel essai livré');

    expect(new Set(receiver.calls.map((call) => call.headers['webhook-id'])).size).toBe(1);
    expect(receiver.calls.every((call) => call.signatureValid)).toBe(true);
    expect(backoffs).toHaveLength(1);
    expect(backoffs[0]).toBeGreaterThanOrEqual(1);
    expect(byAttempt(await history(workflow.id))).toMatchObject([
      {
        outcome: 'failed',
        httpStatus: 500,
        attempt: 1,
        retry: 'scheduled',
        message: MESSAGES.execution.serverError,
      },
      { outcome: 'success', httpStatus: 200, attempt: 2 },
    ]);
    expect(await queueDepth(queues, 'dead-letter')).toMatchObject({ total: 0 });
    expect(app.metrics.countOf(METRIC.deliveryRetried)).toBe(1);
    expect(app.metrics.countOf(METRIC.deliverySucceeded)).toBe(1);
    // The lag is measured on the first attempt only: a retry's wait is the back-off, not a lag.
    expect(app.metrics.durations.get(METRIC.dispatchLag)).toHaveLength(1);
  });

  it('honours Retry-After on a 429', async () => {
    behaviour = (_path, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 200 };
    await scheduled('/limited');
    startPoller();

    await tick();
    await eventually(async () => receiver.calls.length === 2 && (await drained()), 'nouvel essai livré');

    expect(backoffs).toEqual([120]);
  });

  it('moves a run whose receiver answers 500 forever to the dead-letter queue, with every attempt in the history, and sends it back on request', async () => {
    behaviour = () => ({ status: 500 });
    const workflow = await scheduled('/down');
    startPoller();

    await tick();
    await eventually(
      async () => (await queueDepth(queues, 'dead-letter')).total === 1 && (await drained()),
      'message en file des échecs',
    );

    expect(receiver.calls).toHaveLength(5);
    const attempts = byAttempt(await history(workflow.id));
    expect(attempts.map((execution) => [execution.attempt, execution.outcome, execution.retry])).toEqual([
      [1, 'failed', 'scheduled'],
      [2, 'failed', 'scheduled'],
      [3, 'failed', 'scheduled'],
      [4, 'failed', 'scheduled'],
      [5, 'failed', 'dead_letter'],
    ]);
    expect(app.metrics.countOf(METRIC.deliveryRetried)).toBe(4);
    expect(app.metrics.countOf(METRIC.deliveryDeadLettered)).toBe(1);

    behaviour = () => ({ status: 200 });
    const admin = await issueAndSignIn(app, 'admin');
    const redrive = await callRoute<RedriveReply>(app, 'redriveDeadLetters', { token: admin.token });
    expect(redrive.body.moved).toBe(1);
    await eventually(async () => receiver.calls.length === 6 && (await drained()), 'exécution relancée');

    expect(receiver.calls[5]?.headers['webhook-id']).toBe(receiver.calls[0]?.headers['webhook-id']);
    expect(receiver.calls[5]?.body.trigger).toBe('redrive');
    expect(await history(workflow.id)).toHaveLength(6);
    expect(await queueDepth(queues, 'dead-letter')).toMatchObject({ total: 0 });
  });

  it('sends back what the admin resends though scheduling is off (address fixed, paused), and says how many could not be and why', async () => {
    behaviour = (path) => ({ status: path.startsWith('/fixed') ? 200 : 500 });
    const admin = await issueAndSignIn(app, 'admin');
    const retired = await createSignedInLawyer(app, admin.token);
    const fixed = await scheduled('/broken');
    const paused = await scheduled('/paused');
    const deleted = await scheduled('/deleted');
    const unlicensed = await scheduled('/unlicensed', { lawyerEmail: retired.email });
    startPoller();
    await tick();
    await eventually(
      async () => (await queueDepth(queues, 'dead-letter')).total === 4 && (await drained()),
      'quatre messages en file des échecs',
    );

    // The natural sequence: the address fixed (which switches scheduling off), another left paused,
    // one automation deleted, one firm's licence ended; then the resend.
    const edit = await callRoute(app, 'updateWorkflow', {
      token: admin.token,
      params: { id: fixed.id },
      body: { webhookUrl: `${receiver.baseUrl}/fixed` },
    });
    expect(edit.statusCode).toBe(200);
    await new WorkflowRepository(app.table).update(
      paused.id,
      { cronEnabled: false },
      app.clock.now().toISOString(),
    );
    await callRoute(app, 'deleteWorkflow', { token: admin.token, params: { id: deleted.id } });
    await new LicenseRepository(app.table).updateState(
      retired.keyHash,
      { isActive: false, subscriptionStatus: 'canceled', nextPaymentDue: null, accessEndsAt: null },
      app.clock.now().toISOString(),
    );
    for (const workflow of [fixed, paused]) {
      expect(await new WorkflowRepository(app.table).getById(workflow.id)).toMatchObject({
        cronEnabled: false,
      });
    }
    const callsBefore = receiver.calls.length;

    const redrive = await callRoute<RedriveReply>(app, 'redriveDeadLetters', { token: admin.token });

    expect(redrive.body).toEqual({
      moved: 2,
      notSent: { workflowDeleted: 1, licenseInactive: 1 },
      message: REDRIVE_MESSAGES.redriven(2, { workflowDeleted: 1, licenseInactive: 1 }),
    });
    expect(redrive.body.message).toBe(
      "2 exécution(s) en échec renvoyée(s) dans la file d'exécution ; 2 non renvoyée(s) : 1 dont l'automatisation a été supprimée, 1 dont la licence du cabinet est inactive",
    );
    await eventually(
      async () =>
        (await history(fixed.id)).some((run) => run.trigger === 'redrive' && run.outcome === 'success') &&
        (await history(paused.id)).some((run) => run.trigger === 'redrive' && run.attempt === 1) &&
        (await drained()),
      'exécutions renvoyées appelées',
    );
    const resent = receiver.calls.slice(callsBefore);
    expect(resent.some((call) => call.path === '/fixed' && call.body.trigger === 'redrive')).toBe(true);
    expect(resent.some((call) => call.path === '/paused' && call.body.trigger === 'redrive')).toBe(true);
    expect(resent.some((call) => call.path === '/deleted' || call.path === '/unlicensed')).toBe(false);
    for (const workflow of [fixed, paused]) {
      expect(
        (await history(workflow.id)).filter((run) => run.message === MESSAGES.execution.cancelledUnscheduled),
      ).toEqual([]);
    }
    // Held back under the run's own trigger: the history shows it as resent ('redrive') only when called.
    expect(await history(unlicensed.id)).toContainEqual(
      expect.objectContaining({
        trigger: 'schedule',
        outcome: 'cancelled',
        message: REDRIVE_MESSAGES.notResentLicenseInactive,
      }),
    );
    expect((await history(unlicensed.id)).filter((run) => run.trigger === 'redrive')).toEqual([]);
  });

  it('does not retry a 404 and says the workflow may be inactive in n8n', async () => {
    behaviour = () => ({ status: 404 });
    const workflow = await scheduled('/missing');
    startPoller();

    await tick();
    await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel refusé traité');

    expect(await history(workflow.id)).toMatchObject([
      { outcome: 'failed', httpStatus: 404, attempt: 1, message: MESSAGES.execution.notFoundInactive },
    ]);
    expect((await history(workflow.id))[0]).not.toHaveProperty('retry');
    expect(await queueDepth(queues, 'dead-letter')).toMatchObject({ total: 0 });
  });

  it('does not call a finished run again when SQS delivers its message twice', async () => {
    const workflow = await scheduled('/once');
    startPoller();
    await tick();
    await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel livré');

    // The same run again: due when the workflow was scheduled.
    const dueAt = workflow.updatedAt;
    await queues.dispatchQueue.sendBatch([
      {
        message: {
          workflowId: workflow.id,
          dueAt,
          dispatchId: `${workflow.id}:${dueAt}`,
          trigger: 'schedule',
        },
        delaySeconds: 0,
        firm: workflow.lawyerEmail,
      },
    ]);
    await eventually(drained, 'doublon traité');

    expect(receiver.calls).toHaveLength(1);
    expect(await history(workflow.id)).toHaveLength(1);
    // What the duplicate read: the run's end, which is its history entry (no marker beside it).
    const { Items = [] } = await app.table.doc.send(
      new QueryCommand({
        TableName: app.table.name,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `WORKFLOW#${workflow.id}` },
      }),
    );
    expect(Items.filter((item) => item.entity === 'Execution').map((item) => item.SK)).toEqual([
      runEndKey(workflow.id, `${workflow.id}:${dueAt}`).SK,
    ]);
    expect(Items.filter((item) => String(item.SK).startsWith('DISPATCH#'))).toEqual([]);
    // The slot the duplicate took while its run was read went back.
    expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
  });

  it('keeps one end of a run whose second delivery is called while the first ends (the window the lease leaves)', async () => {
    const workflow = await scheduled('/window');
    const dueAt = workflow.updatedAt;
    const dispatchId = `${workflow.id}:${dueAt}`;
    // While the worker calls, another delivery of the same run records its end.
    behaviour = () => ({
      status: 200,
      until: new ExecutionRepository(app.table)
        .record({
          workflowId: workflow.id,
          dispatchId,
          trigger: 'schedule',
          startedAt: dueAt,
          durationMs: 5,
          httpStatus: 200,
          outcome: 'success',
          message: MESSAGES.workflow.workflowExecuted,
          attempt: 1,
        })
        .then(() => undefined),
    });
    startPoller();
    await tick();
    await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel livré');

    // The history holds the first end only, and the health counted one run's end.
    expect(await history(workflow.id)).toMatchObject([{ id: dispatchId, startedAt: dueAt, durationMs: 5 }]);
    expect(app.logger.lines.some((line) => line.includes('appel en double non enregistré'))).toBe(true);
    expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
  });

  it('records a delivered run in one write unit of history: its end, which a second delivery reads', async () => {
    const workflow = await scheduled('/units');
    await tick();
    const meter = meterTable(app.table);
    startPoller();
    await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel livré');

    const writes = meter.since(0).filter((call) => call.writeUnits > 0);
    const ofHistory = writes.filter(
      (call) => call.partition === `WORKFLOW#${workflow.id}` && call.command === 'PutItem',
    );
    expect(ofHistory).toMatchObject([{ writeUnits: 1, conditionFailed: false }]);
    expect(writes.map((call) => call.command)).not.toContain('BatchWriteItem');
    // A run alone in its batch: its firm's slot taken and given back with its lawyer's hour (2),
    // its end on the schedule item (1), everyone's hour (1, shared by a full batch), its history (1);
    // apart, the tick's last result that listed it (at most 10 runs a shard a tick).
    const perRun = writes.filter((call) => !call.partition?.startsWith('SCHEDULER'));
    expect(perRun.reduce((sum, call) => sum + call.writeUnits, 0)).toBe(5);
  });

  it('delivers a message queued before messages named their firm, taking the slot of the owner', async () => {
    const workflow = await scheduled('/avant');
    const dueAt = app.clock.now().toISOString();
    await queues.client.send(
      new SendMessageCommand({
        QueueUrl: queues.queueUrl,
        MessageBody: JSON.stringify({
          workflowId: workflow.id,
          dueAt,
          dispatchId: `${workflow.id}:${dueAt}`,
          trigger: 'schedule',
        }),
      }),
    );
    startPoller();
    await eventually(async () => receiver.calls.length === 1 && (await drained()), 'appel livré');

    expect(await history(workflow.id)).toMatchObject([{ outcome: 'success', attempt: 1 }]);
    expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
  });

  it('does not call a workflow switched off after it was dispatched, and says so in its history', async () => {
    const workflow = await scheduled('/off');
    await tick();
    await new WorkflowRepository(app.table).toggle(workflow.id, 'active', app.clock.now().toISOString());

    startPoller();
    await eventually(drained, 'file vidée');

    expect(receiver.calls).toHaveLength(0);
    expect(await history(workflow.id)).toMatchObject([
      { outcome: 'cancelled', message: MESSAGES.execution.cancelledInactive },
    ]);
    expect(await heldSlots(app, workflow.lawyerEmail)).toEqual([]);
  });

  it('loses nothing over a run with injected failures: calls sent = calls recorded + dead-lettered', async () => {
    const plans = {
      '/ok': () => ({ status: 200, delayMs: 50 }),
      '/flaky': (index: number) => ({ status: index === 0 ? 503 : 200, delayMs: 50 }),
      '/down': () => ({ status: 500, delayMs: 10 }),
      '/missing': () => ({ status: 404 }),
      '/bad-request': () => ({ status: 400 }),
    } as const;
    const calls = new Map<string, number>();
    behaviour = (path) => {
      const count = calls.get(path) ?? 0;
      calls.set(path, count + 1);
      const plan = plans[path.replace(/\/\d+$/, '') as keyof typeof plans];
      return plan(count);
    };
    const counts = { '/ok': 10, '/flaky': 4, '/down': 3, '/missing': 2, '/bad-request': 1 };
    const workflows: WorkflowRecord[] = [];
    for (const [path, count] of Object.entries(counts)) {
      for (let index = 0; index < count; index++) workflows.push(await scheduled(`${path}/${index}`));
    }
    startPoller();

    const run = await tick();
    await eventually(
      async () => (await queueDepth(queues, 'dead-letter')).total === counts['/down'] && (await drained()),
      'toutes les exécutions traitées',
      60_000,
    );

    const sent = run.executions.filter((execution) => execution.status === 'queued').map((e) => e.workflowId);
    const recorded = (await Promise.all(workflows.map((workflow) => history(workflow.id)))).flat();
    const finished = recorded
      .filter((execution) => !execution.retry)
      .map((execution) => execution.workflowId);
    const deadLettered = (await receiveAll(queues, 'dead-letter')).map((message) => message.workflowId);
    expect(sent).toHaveLength(workflows.length);
    expect([...finished, ...deadLettered].sort()).toEqual([...sent].sort());
    expect(recorded).toHaveLength(receiver.calls.length);
    expect(recorded.filter((execution) => execution.outcome === 'success')).toHaveLength(14);
    // The poller's invocations at once, each calling its batch side by side.
    expect(receiver.maxConcurrent).toBeLessThanOrEqual(
      GLOBAL_SCHEDULING.maxConcurrentWorkflows * WEBHOOK_QUEUE.batchSize,
    );
  });
});
