import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { MESSAGES } from '../../../../shared/messages';
import type { ExecuteWebhookReply, ExecutionList } from '../../../../shared/schemas/scheduler';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, issueAndSignIn, type SignedIn } from '../../../support/directory';
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
});
