import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { schedulerRunKey } from '../../functions/data/keys';
import { SchedulerRunRepository } from '../../functions/data/scheduler-runs';
import { WorkflowRepository } from '../../functions/data/workflows';
import { runScheduler } from '../../functions/domain/run-scheduler';
import { ADMIN_RUN_RESULT } from '../../functions/domain/scheduling-settings';
import { type LocalQueues, startLocalQueues } from '../../lib/local/queue/local-queues';
import type { QueuePoller } from '../../lib/local/queue/poller';
import { MESSAGES } from '../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';
import { workflowRecord } from '../support/records';
import {
  eventually,
  queueDepth,
  startTestReceiver,
  startWorkerPoller,
  type TestReceiver,
} from '../support/scheduling';

/**
 * Issue 14 §5: the scheduler's summary says what it did (runs queued, not 'réussis'), and the
 * calls' ends reach its result on /admin/settings as successes and failures.
 */
describe('a scheduler run and the results of the calls it queued', () => {
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let poller: QueuePoller;

  beforeEach(async () => {
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    app = { ...(await createTestApp(inject('dynamoEndpoint'))), webhookQueue: queues.dispatchQueue };
    // n8n answers 404 for a workflow inactive there: a final failure.
    receiver = await startTestReceiver(app, (path) => ({ status: path === '/inactif-dans-n8n' ? 404 : 200 }));
    poller = startWorkerPoller(queues, app);
  });
  afterEach(async () => {
    await poller.stop();
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(app);
  });

  it('says what it queued, then shows each call’s success or failure in the last result', async () => {
    const paths = ['/ok-1', '/ok-2', '/ok-3', '/inactif-dans-n8n'];
    const workflows = await Promise.all(
      paths.map(async (path) => {
        const record = workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}${path}` });
        await new WorkflowRepository(app.table).create(record);
        return record;
      }),
    );

    const { run } = await runScheduler(app, 'manual_force');

    expect(run.message).toBe(MESSAGES.scheduler.forcedSummary(4, 4));
    expect(run.message).toBe('Exécution forcée: 4 mises en file sur 4 workflows vérifiés');
    expect(run.executions.every((execution) => execution.status === 'queued')).toBe(true);

    await eventually(
      async () =>
        receiver.calls.length === 4 && (await queueDepth(queues)).total === 0 && poller.inFlight === 0,
      'appels terminés',
    );
    const { manual } = await new SchedulerRunRepository(app.table).lastRuns();
    const statusOf = (index: number) =>
      manual?.executions.find((execution) => execution.workflowId === workflows[index]?.id);
    expect([0, 1, 2].map((index) => statusOf(index)?.status)).toEqual(['success', 'success', 'success']);
    expect(statusOf(3)).toMatchObject({ status: 'failed', message: MESSAGES.execution.notFoundInactive });
  });

  it('counts nothing queued as a success before its call ends', async () => {
    const record = workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/ok` });
    await new WorkflowRepository(app.table).create(record);
    await poller.stop();

    const { run } = await runScheduler(app, 'manual');

    expect(run.message).toBe('Planificateur: 1 mise en file sur 1 workflow vérifié');
    expect(run.executions.filter((execution) => execution.status === 'success')).toEqual([]);
  });

  it('answers with every run it queued but keeps its first ones as its last result, and only they report there', async () => {
    await poller.stop();
    const count = ADMIN_RUN_RESULT.listed + 5;
    for (let index = 0; index < count; index++) {
      await new WorkflowRepository(app.table).create(
        workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/ok-${index}` }),
      );
    }

    const { run } = await runScheduler(app, 'manual_force');
    expect(run.executions).toHaveLength(count);
    expect(run.message).toBe(MESSAGES.scheduler.forcedSummary(count, count));
    const listed = run.executions.slice(0, ADMIN_RUN_RESULT.listed).map((execution) => execution.workflowId);

    poller = startWorkerPoller(queues, app);
    await eventually(
      async () =>
        receiver.calls.length === count && (await queueDepth(queues)).total === 0 && poller.inFlight === 0,
      'appels terminés',
      60_000,
    );
    const { manual } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(manual?.message).toBe(MESSAGES.scheduler.forcedSummary(count, count));
    expect(manual?.executions.map((execution) => execution.workflowId)).toEqual(listed);
    expect(manual?.executions.every((execution) => execution.status === 'success')).toBe(true);
    // The others did not write to the result: its item holds the listed runs' ends only.
    const { Item } = await app.table.doc.send(
      new GetCommand({ TableName: app.table.name, Key: schedulerRunKey('manual'), ConsistentRead: true }),
    );
    expect(Object.keys(Item?.outcomes ?? {}).sort()).toEqual([...listed].sort());
  });
});
