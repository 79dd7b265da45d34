import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { signWebhook } from '../../../../../functions/adapters/scheduling/webhook-signature';
import { WorkflowRepository } from '../../../../../functions/data/directory/workflows';
import { ExecutionRepository } from '../../../../../functions/data/scheduling/executions';
import { systemClock } from '../../../../../functions/runtime/dependencies';
import { startDemoReceiver } from '../../../../../lib/local/queue/demo-receiver';
import { type LocalScheduling, startLocalScheduling } from '../../../../../lib/local/queue/local-scheduling';
import { createTestApp, disposeTestApp, type TestApp } from '../../../../support/app';
import { workflowRecord } from '../../../../support/records';
import { eventually } from '../../../../support/scheduling';

describe('local scheduling pipeline', () => {
  let directory: string;
  let app: TestApp;
  let scheduling: LocalScheduling;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'local-scheduling-'));
    app = await createTestApp(inject('dynamoEndpoint'));
    scheduling = await startLocalScheduling({
      dataDirectory: directory,
      allowPrivateWebhooks: true,
      demoReceiverPort: 0,
      logger: app.logger,
    });
  });
  afterEach(async () => {
    await scheduling.stop();
    await disposeTestApp(app);
    rmSync(directory, { recursive: true, force: true });
  });

  it('runs a scheduled automation into the demo receiver: timer, scheduler, queue, poller, worker', async () => {
    const deps = { ...app, ...scheduling.ports, clock: systemClock };
    const workflow = workflowRecord({ cronEnabled: true, webhookUrl: scheduling.info.demoWebhookUrl });
    await new WorkflowRepository(app.table).create(workflow);

    scheduling.run(deps);
    const calls = async () =>
      (await fetch(`${scheduling.info.demoPageUrl}calls.json`).then((reply) => reply.json())) as {
        workflowName: string;
        signatureValid: boolean;
        trigger: string;
      }[];
    await eventually(
      async () => (await calls()).length === 1,
      'appel reçu par le récepteur de démonstration',
    );
    await eventually(
      async () =>
        (await new ExecutionRepository(app.table).listByWorkflow(workflow.id, 100)).items.length === 1,
      'exécution enregistrée',
    );

    expect(await calls()).toMatchObject([
      { workflowName: workflow.name, signatureValid: true, trigger: 'schedule' },
    ]);
    expect(statSync(join(directory, 'webhook-secret')).mode & 0o777).toBe(0o600);
    expect(scheduling.info.webhookSecret).toMatch(/^whsec_/);
  });
});

describe('demo receiver', () => {
  it("checks signatures with the local secret, lists the calls, and fails on '/echec' paths", async () => {
    const secret = 'whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=';
    const receiver = await startDemoReceiver({ port: 0, secret });
    try {
      const body = JSON.stringify({ workflowName: 'Relance <b>', trigger: 'schedule', dueAt: null });
      const signed = signWebhook(secret, 'w1:2026', Math.floor(Date.now() / 1000), body);
      const good = await fetch(receiver.webhookUrl, { method: 'POST', body, headers: { ...signed } });
      const forged = await fetch(receiver.webhookUrl, {
        method: 'POST',
        body,
        headers: { ...signed, 'webhook-signature': 'v1,AAAA' },
      });
      const failing = await fetch(receiver.webhookUrl.replace('/demo-webhook', '/echec'), {
        method: 'POST',
        body,
        headers: { ...signed },
      });
      const page = await fetch(receiver.pageUrl).then((reply) => reply.text());

      expect([good.status, forged.status, failing.status]).toEqual([200, 200, 500]);
      expect(receiver.calls.map((call) => [call.signatureValid, call.status])).toEqual([
        [true, 500],
        [false, 200],
        [true, 200],
      ]);
      expect(page).toContain('signature valide');
      expect(page).toContain('signature invalide');
      expect(page).toContain('Relance &#60;b&#62;');
      expect(page).not.toContain('<b>');
    } finally {
      await receiver.stop();
    }
  });
});
