import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { HealthSettingsRepository } from '../../../../functions/data/health/health-settings';
import { REPORT_METRIC } from '../../../../functions/domain/core/metrics';
import { dispatchIdOf } from '../../../../functions/domain/scheduling/due-slots';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import type { QueuePoller } from '../../../../lib/local/queue/poller';
import { REPORT_FIELD_MESSAGES, REPORT_MESSAGES } from '../../../../shared/report-messages';
import type { HealthDashboard, WorkflowHealthDetail } from '../../../../shared/schemas/health';
import type { Execution, ExecutionList } from '../../../../shared/schemas/scheduler';
import { createTestApp, disposeTestApp, MemoryMailer, type TestApp } from '../../../support/app';
import { issueAndSignIn } from '../../../support/directory';
import { type LocalApi, startLocalApi } from '../../../support/local-api';
import { workflowRecord } from '../../../support/records';
import { eventually, startWorkerPoller } from '../../../support/scheduling';

/** What the stand-in for n8n does with a run, by the run's order (from 1). */
type Behaviour = 'success' | 'failure' | 'nothing' | 'twice' | 'other-run';

interface ReportAttempt {
  readonly run: number;
  readonly status: number;
  readonly body: { error?: string; accepted?: boolean };
}

/**
 * A receiver standing in for n8n: it answers every webhook call 200 at once (the Webhook node's
 * default, "Immediately"), then does its work and posts the report to the body's `report.url` as
 * the recipe's last HTTP Request node does, or not, or twice, or with another run's id.
 */
async function startN8nStandIn(behaviours: readonly Behaviour[]) {
  const bodies: { report: { url: string; runId: string } }[] = [];
  const attempts: ReportAttempt[] = [];
  const post = async (run: number, url: string, body: Record<string, unknown>) => {
    const reply = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    attempts.push({ run, status: reply.status, body: (await reply.json()) as ReportAttempt['body'] });
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof bodies)[number];
      bodies.push(body);
      const run = bodies.length;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"message":"Workflow was started"}');
      const { url, runId } = body.report;
      const behaviour = behaviours[run - 1] ?? 'nothing';
      setImmediate(async () => {
        if (behaviour === 'success' || behaviour === 'twice')
          await post(run, url, {
            status: 'success',
            summary: '3 e-mails classés, 2 pièces renommées',
            items: 5,
            runId,
          });
        if (behaviour === 'twice')
          await post(run, url, { status: 'success', summary: 'Encore une fois', runId });
        if (behaviour === 'failure')
          await post(run, url, {
            status: 'failure',
            summary: 'Classement interrompu',
            error: 'Google Drive : accès refusé au dossier « Dossier Clients »',
            runId,
          });
        if (behaviour === 'other-run') {
          const other = bodies[0]?.report.runId ?? 'inconnu';
          await post(run, url, { status: 'success', summary: 'Copié d’un autre run', runId: other });
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/classement`,
    bodies,
    attempts,
    post,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * End to end on the local runtime's parts: the HTTP API `npm start` serves (the same adapter and
 * handlers), the worker on the local queue, and a stand-in for n8n that reports success, failure,
 * nothing, twice, late and for another run. The history, the health counters and the alerts show
 * each.
 */
describe('completion reports, end to end', () => {
  let app: TestApp;
  let queues: LocalQueues;
  let api: LocalApi;
  let worker: QueuePoller;
  let n8n: Awaited<ReturnType<typeof startN8nStandIn>>;
  let adminToken: string;
  const mailer = new MemoryMailer();
  const workflow = workflowRecord({ cronEnabled: true, name: 'Classement des pièces' });
  const dueAt = (minute: number) => new Date(Date.UTC(2026, 10, 22, 9, minute)).toISOString();
  let sent = 0;

  /** Queues the next due run of the workflow, as a tick's claimer does, and waits for its call. */
  async function runOnce(): Promise<void> {
    sent += 1;
    // A second apart, so that the history (newest first by start) lists them in order.
    app.clock.advance(1_000);
    const due = dueAt(sent);
    const { failed } = await queues.dispatchQueue.sendBatch([
      {
        message: {
          workflowId: workflow.id,
          dueAt: due,
          dispatchId: dispatchIdOf(workflow.id, due),
          trigger: 'schedule',
          firm: workflow.lawyerEmail,
        },
        delaySeconds: 0,
        firm: workflow.lawyerEmail,
      },
    ]);
    expect(failed).toEqual([]);
    await eventually(() => n8n.bodies.length === sent, `appel n° ${sent} reçu`);
    await eventually(async () => (await history()).length === sent, `exécution n° ${sent} enregistrée`);
  }

  async function get<T>(path: string): Promise<T> {
    const reply = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(reply.status).toBe(200);
    return (await reply.json()) as T;
  }

  /** The workflow's history, oldest first, as the API shows it. */
  const history = async (): Promise<Execution[]> =>
    (await get<ExecutionList>(`/api/workflows/${workflow.id}/executions?limit=50`)).executions.reverse();

  beforeAll(async () => {
    queues = await startLocalQueues();
    const base = await createTestApp(inject('dynamoEndpoint'));
    let apiUrl = '';
    app = {
      ...base,
      webhookQueue: queues.dispatchQueue,
      publicApiUrl: () => apiUrl,
      mail: { mailer, sender: 'alertes@cabinet.test', publicUrl: () => 'https://app.cabinet.test' },
    };
    api = await startLocalApi(app);
    apiUrl = api.url;
    n8n = await startN8nStandIn([
      'success',
      'success',
      'success',
      'nothing',
      'failure',
      'twice',
      'other-run',
      'failure',
    ]);
    await new WorkflowRepository(app.table).create({ ...workflow, webhookUrl: n8n.url });
    await new HealthSettingsRepository(app.table).saveSettings(
      { pauseAfterFailures: 3, alertEmail: 'admin@cabinet.test', dailyDigest: false },
      app.clock.now().toISOString(),
    );
    adminToken = (await issueAndSignIn(app, 'admin')).token;
    worker = startWorkerPoller(queues, app);
  });
  afterAll(async () => {
    await worker.stop();
    await n8n.stop();
    await api.stop();
    await queues.stop();
    await disposeTestApp(app);
  });

  it('carries a single-use report link to this API and the run id (the webhook-id) in every body', async () => {
    await runOnce();
    const [body] = n8n.bodies;
    expect(body?.report.url).toMatch(new RegExp(`^${api.url}/api/reports/[\\w-]+\\.[\\w-]+$`));
    expect(body?.report.runId).toBe(dispatchIdOf(workflow.id, dueAt(1)));
    await eventually(() => n8n.attempts.length === 1, 'compte rendu du run 1 posté');
    expect(n8n.attempts[0]).toMatchObject({ status: 200, body: { accepted: true } });
    expect((await history())[0]?.report).toEqual({
      state: 'success',
      summary: '3 e-mails classés, 2 pièces renommées',
      items: 5,
      reportedAt: (await history())[0]?.startedAt,
    });
  });

  it("shows 'Sans compte rendu' once a workflow that usually reports is past its expected time", async () => {
    await runOnce();
    await runOnce();
    await eventually(() => n8n.attempts.length === 3, 'comptes rendus des runs 2 et 3');
    await runOnce(); // run 4: n8n says nothing
    expect((await history())[3]?.report).toBeNull();

    // Its reports came at once: its expected time is the 2-minute floor.
    app.clock.advance(2 * 60_000 + 1_000);
    const fourth = (await history())[3];
    expect(fourth?.report).toEqual({
      state: 'missing',
      expectedBy: new Date(Date.parse(fourth?.startedAt ?? '') + 2 * 60_000).toISOString(),
    });
    expect((await history()).slice(0, 3).map((run) => run.report?.state)).toEqual([
      'success',
      'success',
      'success',
    ]);
  });

  it("counts a reported failure as a failure: history, card, counters, 'Réception OK, traitement en échec'", async () => {
    await runOnce(); // run 5: failure
    await eventually(() => n8n.attempts.length === 4, 'compte rendu du run 5');
    expect(n8n.attempts[3]?.status).toBe(200);
    expect((await history())[4]?.report).toMatchObject({
      state: 'failure',
      error: 'Google Drive : accès refusé au dossier « Dossier Clients »',
    });

    const health = await get<WorkflowHealthDetail>(`/api/workflows/${workflow.id}/health`);
    expect(health).toMatchObject({
      state: 'degraded',
      consecutiveFailures: 1,
      lastFailureMessage: REPORT_MESSAGES.processingFailure(
        'Google Drive : accès refusé au dossier « Dossier Clients »',
      ),
      lastFailureStatus: null,
    });
    // 5 calls delivered, one of them failed behind the delivery: 4 successes out of 5.
    expect(health.last24Hours).toMatchObject({ runs: 5, succeeded: 4, processingFailed: 1 });
    const dashboard = await get<HealthDashboard>('/api/health/dashboard');
    const hours = dashboard.hours.filter((hour) => hour.succeeded + (hour.reportedFailed ?? 0) > 0);
    expect(
      hours.map(({ succeeded, failed, reportedFailed }) => ({ succeeded, failed, reportedFailed })),
    ).toEqual([{ succeeded: 5, failed: 0, reportedFailed: 1 }]);
    expect(app.metrics.countOf(REPORT_METRIC.reportedFailure)).toBe(1);
  });

  it('accepts a report once: the second gets a 409 and changes nothing', async () => {
    await runOnce(); // run 6: reported twice
    await eventually(() => n8n.attempts.length === 6, 'les deux comptes rendus du run 6');
    expect(n8n.attempts.slice(4).map(({ status, body }) => [status, body.error ?? null])).toEqual([
      [200, null],
      [409, REPORT_MESSAGES.refused.alreadyReported],
    ]);
    expect((await history())[5]?.report).toMatchObject({
      state: 'success',
      summary: '3 e-mails classés, 2 pièces renommées',
    });
  });

  it('refuses a report naming another run with a 400 and records nothing for this one', async () => {
    await runOnce(); // run 7: posts run 1's id
    await eventually(() => n8n.attempts.length === 7, 'compte rendu du run 7');
    expect(n8n.attempts[6]).toMatchObject({ status: 400, body: { error: REPORT_MESSAGES.refused.otherRun } });
    expect((await history())[6]?.report).toBeNull();
  });

  it('pauses after reported failures in a row, though every call was delivered, and alerts once', async () => {
    // Run 5 failed, run 6 succeeded: the streak starts again at run 8, whose call n8n answered.
    await runOnce(); // run 8: failure
    await eventually(() => n8n.attempts.length === 8, 'compte rendu du run 8');
    expect((await get<WorkflowHealthDetail>(`/api/workflows/${workflow.id}/health`)).state).toBe('degraded');
    for (const run of [9, 10]) {
      await runOnce();
      const body = n8n.bodies[run - 1];
      await n8n.post(run, body?.report.url ?? '', {
        status: 'failure',
        summary: 'Classement interrompu',
        error: 'Google Drive : quota dépassé',
      });
    }
    const health = await get<WorkflowHealthDetail>(`/api/workflows/${workflow.id}/health`);
    expect(health.state).toBe('paused');
    expect(health.pauseReason).toContain(REPORT_MESSAGES.processingFailure('Google Drive : quota dépassé'));
    expect((await new WorkflowRepository(app.table).getById(workflow.id))?.cronEnabled).toBe(false);
    const alerts = mailer.sent.filter((mail) => mail.subject.includes('« Classement des pièces » suspendue'));
    expect(alerts.map((mail) => mail.to).sort()).toEqual(['admin@cabinet.test', workflow.lawyerEmail].sort());
  });

  it('refuses a late report with a 410, and an unknown or altered link with a 404', async () => {
    const fourth = n8n.bodies[3]?.report.url ?? '';
    app.clock.advance(24 * 60 * 60_000);
    adminToken = (await issueAndSignIn(app, 'admin')).token;
    await n8n.post(4, fourth, { status: 'success', summary: 'Enfin fini' });
    const tampered = fourth.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    await n8n.post(4, tampered, { status: 'success', summary: 'Enfin fini' });
    await n8n.post(4, `${api.url}/api/reports/inconnu`, { status: 'success', summary: 'Enfin fini' });
    expect(n8n.attempts.slice(-3).map(({ status, body }) => [status, body.error])).toEqual([
      [410, REPORT_MESSAGES.refused.expired],
      [404, REPORT_MESSAGES.refused.unknownLink],
      [404, REPORT_MESSAGES.refused.unknownLink],
    ]);
    expect((await history())[3]?.report?.state).toBe('missing');
  });

  it('refuses a malformed report with a 400 naming the field, and changes nothing', async () => {
    const seventh = n8n.bodies[6]?.report.url ?? '';
    app.clock.advance(-24 * 60 * 60_000);
    adminToken = (await issueAndSignIn(app, 'admin')).token;
    for (const body of [
      { status: 'done', summary: 'x' },
      { status: 'success', summary: '' },
      { status: 'success', summary: 'x'.repeat(501) },
      { status: 'failure', summary: 'x', items: -1 },
    ]) {
      await n8n.post(7, seventh, body);
    }
    expect(n8n.attempts.slice(-4).map(({ status, body }) => [status, body.error])).toEqual([
      [400, REPORT_FIELD_MESSAGES.status],
      [400, REPORT_FIELD_MESSAGES.summary],
      [400, REPORT_FIELD_MESSAGES.summary],
      [400, REPORT_FIELD_MESSAGES.items],
    ]);
    expect((await history())[6]?.report).toBeNull();
  });
});
