import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { dispatchIdOf } from '../../../../functions/domain/scheduling/due-slots';
import { MESSAGES } from '../../../../shared/messages';
import { REPLAY_MESSAGES } from '../../../../shared/report-messages';
import type {
  ExecuteWebhookReply,
  Execution,
  ExecutionList,
  ExecutionTrigger,
} from '../../../../shared/schemas/scheduler';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, type SignedIn } from '../../../support/directory';
import { workflowRecord } from '../../../support/records';
import { startTestReceiver, type TestReceiver } from '../../../support/scheduling';

/** 'Exécuter' and the execution history, through the real handlers and a real receiver. */
describe('manual run and execution history', () => {
  let app: TestApp;
  let receiver: TestReceiver;
  let admin: SignedIn;
  let lawyer: SignedIn;
  let otherLawyer: SignedIn;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    receiver = await startTestReceiver(app, (path) => ({
      status: path.startsWith('/fails') ? 500 : path.startsWith('/missing') ? 404 : 200,
    }));
    admin = await issueAndSignIn(app, 'admin');
    lawyer = await issueAndSignIn(app, 'lawyer');
    otherLawyer = await issueAndSignIn(app, 'lawyer');
  });
  afterAll(async () => {
    await receiver.stop();
    await disposeTestApp(app);
  });

  async function workflowOf(owner: SignedIn, path: string, overrides: Partial<WorkflowRecord> = {}) {
    const record = workflowRecord({
      lawyerEmail: owner.email,
      webhookUrl: `${receiver.baseUrl}${path}`,
      ...overrides,
    });
    await new WorkflowRepository(app.table).create(record);
    return record;
  }
  const run = (caller: SignedIn, body: Record<string, unknown>, deps: TestApp = app) =>
    callRoute<ExecuteWebhookReply>(deps, 'executeWebhook', { token: caller.token, body });
  const callsOn = (workflow: WorkflowRecord) => receiver.callsOn(new URL(workflow.webhookUrl).pathname);

  it("runs a lawyer's own workflow, signed, and records it in the history", async () => {
    const workflow = await workflowOf(lawyer, '/own');

    const reply = await run(lawyer, {
      workflowId: workflow.id,
      payload: { timestamp: app.clock.now().toISOString(), source: 'notary_app', trigger: 'manual' },
    });

    expect(reply).toMatchObject({
      statusCode: 200,
      body: { success: true, status: 200, message: MESSAGES.workflow.workflowExecuted },
    });
    expect(callsOn(workflow)).toHaveLength(1);
    expect(callsOn(workflow)[0]).toMatchObject({
      signatureValid: true,
      body: { workflowId: workflow.id, trigger: 'manual', source: 'notary_app', dueAt: null },
    });
    const history = await callRoute<ExecutionList>(app, 'workflowExecutions', {
      token: lawyer.token,
      params: { id: workflow.id },
    });
    expect(history.body.executions).toMatchObject([
      { workflowId: workflow.id, trigger: 'manual', outcome: 'success', httpStatus: 200, attempt: 1 },
    ]);
    expect(await new WorkflowRepository(app.table).getById(workflow.id)).toMatchObject({
      cronLastRun: app.clock.now().toISOString(),
    });
  });

  it("answers another lawyer's workflow as missing and calls nothing", async () => {
    const workflow = await workflowOf(lawyer, '/not-yours');

    const reply = await run(otherLawyer, { workflowId: workflow.id });
    const history = await callRoute(app, 'workflowExecutions', {
      token: otherLawyer.token,
      params: { id: workflow.id },
    });

    expect(reply).toMatchObject({ statusCode: 404, body: { error: MESSAGES.workflow.notFound } });
    expect(history.statusCode).toBe(404);
    expect(callsOn(workflow)).toHaveLength(0);
  });

  it('lets an admin run any workflow', async () => {
    const workflow = await workflowOf(lawyer, '/admin-run');

    const reply = await run(admin, { workflowId: workflow.id });

    expect(reply.body).toMatchObject({ success: true, status: 200 });
    expect(callsOn(workflow)).toHaveLength(1);
  });

  it("refuses a webhook URL that is not the workflow's own, and accepts its own", async () => {
    const workflow = await workflowOf(lawyer, '/url-check');

    const mismatch = await run(lawyer, {
      workflowId: workflow.id,
      webhookUrl: 'http://169.254.169.254/latest',
    });
    const same = await run(lawyer, { workflowId: workflow.id, webhookUrl: workflow.webhookUrl });

    expect(mismatch).toMatchObject({
      statusCode: 400,
      body: { error: MESSAGES.execution.invalidWebhookUrl },
    });
    expect(same.body).toMatchObject({ success: true });
    expect(callsOn(workflow)).toHaveLength(1);
  });

  it("gives the spec's message for a failing webhook, with its status", async () => {
    const failing = await workflowOf(lawyer, '/fails');
    const missing = await workflowOf(lawyer, '/missing');

    const serverError = await run(lawyer, { workflowId: failing.id });
    const notFound = await run(lawyer, { workflowId: missing.id });

    expect(serverError).toMatchObject({
      statusCode: 200,
      body: { success: false, status: 500, error: MESSAGES.execution.serverError },
    });
    expect(notFound.body).toMatchObject({
      success: false,
      status: 404,
      error: MESSAGES.execution.notFoundInactive,
    });
    expect(callsOn(failing)).toHaveLength(1);
  });

  it('refuses a private address outside the local runtime, without connecting to it', async () => {
    const workflow = await workflowOf(lawyer, '/private');
    const connectionsBefore = receiver.connections;

    const reply = await run(lawyer, { workflowId: workflow.id }, { ...app, allowPrivateWebhooks: false });

    expect(reply.body).toEqual({ success: false, error: MESSAGES.execution.privateAddress });
    expect(receiver.connections).toBe(connectionsBefore);
  });

  it('lets a lawyer run only an active workflow', async () => {
    const workflow = await workflowOf(lawyer, '/inactive', { active: false });

    const byLawyer = await run(lawyer, { workflowId: workflow.id });
    const byAdmin = await run(admin, { workflowId: workflow.id });

    expect(byLawyer).toMatchObject({
      statusCode: 409,
      body: { error: MESSAGES.execution.workflowInactive },
    });
    expect(byAdmin.body).toMatchObject({ success: true });
    expect(callsOn(workflow)).toHaveLength(1);
  });

  it('lists the history newest first, for the owner and an admin', async () => {
    const workflow = await workflowOf(lawyer, '/history');
    await run(lawyer, { workflowId: workflow.id });
    app.clock.advance(60_000);
    await run(admin, { workflowId: workflow.id });

    const forOwner = await callRoute<ExecutionList>(app, 'workflowExecutions', {
      token: lawyer.token,
      params: { id: workflow.id },
    });
    const forAdmin = await callRoute<ExecutionList>(app, 'workflowExecutions', {
      token: admin.token,
      params: { id: workflow.id },
    });

    expect(forOwner.body.executions.map((execution) => execution.startedAt)).toEqual([
      app.clock.now().toISOString(),
      new Date(app.clock.now().getTime() - 60_000).toISOString(),
    ]);
    expect(forAdmin.body).toEqual(forOwner.body);
  });

  it('holds the 30-second lock between two runs of one workflow on the server too', async () => {
    const workflow = await workflowOf(lawyer, '/locked');

    const first = await run(lawyer, { workflowId: workflow.id });
    app.clock.advance(29_000);
    const tooSoon = await run(admin, { workflowId: workflow.id });
    app.clock.advance(1_000);
    const afterLock = await run(lawyer, { workflowId: workflow.id });

    expect(first.body).toMatchObject({ success: true });
    expect(tooSoon).toMatchObject({ statusCode: 429, body: { error: MESSAGES.execution.manualRunLocked } });
    expect(afterLock.body).toMatchObject({ success: true });
    expect(callsOn(workflow)).toHaveLength(2);
  });

  it('answers an id that is not a workflow id as missing', async () => {
    const reply = await callRoute(app, 'workflowExecutions', { token: admin.token, params: { id: 'nope' } });

    expect(reply.statusCode).toBe(404);
  });

  it('refuses a run without a session', async () => {
    const workflow = await workflowOf(lawyer, '/anonymous');

    const reply = await callRoute(app, 'executeWebhook', { body: { workflowId: workflow.id } });

    expect(reply.statusCode).toBe(401);
    expect(callsOn(workflow)).toHaveLength(0);
  });
  /** A run of the history as the worker records it: a due run that failed after its attempts. */
  async function recordedRun(workflow: WorkflowRecord, trigger: ExecutionTrigger = 'schedule') {
    const dueAt = new Date(app.clock.now().getTime() - 3_600_000).toISOString();
    const dispatchId = dispatchIdOf(workflow.id, dueAt);
    await new ExecutionRepository(app.table).record({
      workflowId: workflow.id,
      dispatchId,
      trigger,
      startedAt: new Date(app.clock.now().getTime() - 3_500_000).toISOString(),
      durationMs: 12,
      httpStatus: 500,
      outcome: 'failed',
      message: MESSAGES.execution.serverError,
      attempt: 5,
    });
    const [execution] = (await new ExecutionRepository(app.table).listByWorkflow(workflow.id, 1)).items;
    if (!execution) throw new Error('exécution non enregistrée');
    return { execution, dispatchId, dueAt };
  }
  const replay = (caller: SignedIn | { token: string }, workflowId: string, execution: Execution) =>
    callRoute<ExecuteWebhookReply>(app, 'replayExecution', {
      token: caller.token,
      params: { id: workflowId },
      body: { executionId: execution.id, startedAt: execution.startedAt },
    });

  it("'Rejouer' sends a run again as itself (webhook-id, trigger, due time) with a report link of its own, even with scheduling off, and records it as a replay", async () => {
    const workflow = await workflowOf(lawyer, '/replayed', { cronEnabled: false });
    const { execution, dispatchId, dueAt } = await recordedRun(workflow);

    const reply = await replay(lawyer, workflow.id, execution);

    expect(reply).toMatchObject({
      statusCode: 200,
      body: { success: true, status: 200, message: REPLAY_MESSAGES.done },
    });
    const [call] = callsOn(workflow);
    expect(call?.signatureValid).toBe(true);
    expect(call?.headers['webhook-id']).toBe(dispatchId);
    expect(call?.body).toMatchObject({ workflowId: workflow.id, trigger: 'schedule', dueAt });
    const report = call?.body.report as { runId: string; url: string };
    expect(report.runId.startsWith(`${dispatchId}:replay:`)).toBe(true);
    const history = await callRoute<ExecutionList>(app, 'workflowExecutions', {
      token: lawyer.token,
      params: { id: workflow.id },
    });
    expect(history.body.executions[0]).toMatchObject({
      trigger: 'replay',
      outcome: 'success',
      httpStatus: 200,
      runId: report.runId,
    });

    // A replay replayed is still the same run for n8n.
    app.clock.advance(30_000);
    const again = await replay(admin, workflow.id, history.body.executions[0] as Execution);
    expect(again.body).toMatchObject({ success: true });
    expect(callsOn(workflow)[1]?.headers['webhook-id']).toBe(dispatchId);
  });

  it("lets only the owner or an admin replay, under the lock of 'Exécuter', and never a test", async () => {
    const workflow = await workflowOf(lawyer, '/replay-rules');
    const { execution } = await recordedRun(workflow);
    const test = await recordedRun(await workflowOf(lawyer, '/replay-test'), 'test');

    const byOther = await replay(otherLawyer, workflow.id, execution);
    const executed = await run(lawyer, { workflowId: workflow.id });
    const tooSoon = await replay(lawyer, workflow.id, execution);
    app.clock.advance(30_000);
    const byAdmin = await replay(admin, workflow.id, execution);
    const ofATest = await replay(lawyer, test.execution.workflowId, test.execution);
    const unknown = await replay(lawyer, workflow.id, { ...execution, id: randomUUID() });

    expect(byOther).toMatchObject({ statusCode: 404, body: { error: MESSAGES.workflow.notFound } });
    expect(executed.body).toMatchObject({ success: true });
    expect(tooSoon).toMatchObject({ statusCode: 429, body: { error: MESSAGES.execution.manualRunLocked } });
    expect(byAdmin.body).toMatchObject({ success: true, message: REPLAY_MESSAGES.done });
    expect(ofATest).toMatchObject({ statusCode: 409, body: { error: REPLAY_MESSAGES.notARun } });
    expect(unknown).toMatchObject({ statusCode: 404, body: { error: REPLAY_MESSAGES.notFound } });
    expect(callsOn(workflow)).toHaveLength(2);
  });

  it("refuses an admin's replay for a firm whose licence is inactive, saying why, and calls nothing", async () => {
    const owner = await createSignedInLawyer(app, admin.token);
    const workflow = await workflowOf({ ...lawyer, email: owner.email }, '/replay-unlicensed');
    const { execution } = await recordedRun(workflow);
    await new LicenseRepository(app.table).updateState(
      owner.keyHash,
      { isActive: false, subscriptionStatus: 'canceled', nextPaymentDue: null, accessEndsAt: null },
      app.clock.now().toISOString(),
    );

    const reply = await replay(admin, workflow.id, execution);

    expect(reply).toMatchObject({ statusCode: 409, body: { error: REPLAY_MESSAGES.licenseInactive } });
    expect(callsOn(workflow)).toHaveLength(0);
  });
});
