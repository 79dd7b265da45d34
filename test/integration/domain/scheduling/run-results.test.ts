import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { schedulerRunShardKey } from '../../../../functions/data/scheduling/keys';
import { SchedulerRunRepository } from '../../../../functions/data/scheduling/scheduler-runs';
import { dueShardOf } from '../../../../functions/data/table/due-index';
import { METRIC, RecordedMetrics } from '../../../../functions/domain/core/metrics';
import { CLAIMS, DUE_SHARDS } from '../../../../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../../../../functions/handlers/scheduling/due-claimer';
import { inProcessClaimers } from '../../../../functions/runtime/in-process-claimers';
import { adminSchedulerRun, schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import type { QueuePoller } from '../../../../lib/local/queue/poller';
import { MESSAGES } from '../../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { workflowRecord } from '../../../support/records';
import {
  eventually,
  queueDepth,
  startTestReceiver,
  startWorkerPoller,
  type TestReceiver,
  withClaimers,
} from '../../../support/scheduling';

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
    app = withClaimers({
      ...(await createTestApp(inject('dynamoEndpoint'))),
      webhookQueue: queues.dispatchQueue,
    });
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

    const run = await adminSchedulerRun(app, 'manual_force');

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

  it('says, in its reply and its last result, how many a forced run found queued already', async () => {
    await poller.stop();
    for (const path of ['/ok-1', '/ok-2']) {
      await new WorkflowRepository(app.table).create(
        workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}${path}` }),
      );
    }
    // The minute tick claims both (scheduled without a run, they are due at once).
    expect(
      (await schedulerServiceOf({ ...app, queue: app.webhookQueue }).run('schedule')).workflows_processed,
    ).toBe(2);
    app.clock.advance(5_000);

    const run = await adminSchedulerRun(app, 'manual_force');

    const summary =
      "Exécution forcée: 0 mise en file sur 2 workflows vérifiés (2 déjà en file depuis moins d'une minute)";
    expect(run).toMatchObject({
      success: true,
      workflows_checked: 2,
      workflows_processed: 0,
      message: summary,
    });
    const { manual } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(manual?.message).toBe(summary);
  });

  it('counts nothing queued as a success before its call ends', async () => {
    const record = workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/ok` });
    await new WorkflowRepository(app.table).create(record);
    await poller.stop();

    const run = await adminSchedulerRun(app, 'manual');

    expect(run.message).toBe('Planificateur: 1 mise en file sur 1 workflow vérifié');
    expect(run.executions.filter((execution) => execution.status === 'success')).toEqual([]);
  });

  it('lists a few runs of each shard and counts them all; only the listed ones report their end, to their shard', async () => {
    await poller.stop();
    // More workflows in one due-index shard than a shard lists, and a few in others.
    const crowded: string[] = [];
    const elsewhere: string[] = [];
    while (crowded.length < CLAIMS.listedPerShard + 2 || elsewhere.length < 3) {
      const id = randomUUID();
      if (dueShardOf(id) === 0) {
        if (crowded.length < CLAIMS.listedPerShard + 2) crowded.push(id);
      } else if (elsewhere.length < 3) elsewhere.push(id);
    }
    const count = crowded.length + elsewhere.length;
    for (const [index, id] of [...crowded, ...elsewhere].entries()) {
      await new WorkflowRepository(app.table).create(
        workflowRecord({ id, cronEnabled: true, webhookUrl: `${receiver.baseUrl}/ok-${index}` }),
      );
    }

    const run = await adminSchedulerRun(app, 'manual_force');

    expect(run).toMatchObject({
      success: true,
      workflows_checked: count,
      workflows_processed: count,
      message: MESSAGES.scheduler.forcedSummary(count, count),
    });
    const listed = run.executions.map((execution) => execution.workflowId);
    expect(listed.filter((id) => crowded.includes(id))).toHaveLength(CLAIMS.listedPerShard);
    expect(listed.filter((id) => elsewhere.includes(id)).sort()).toEqual([...elsewhere].sort());

    poller = startWorkerPoller(queues, app);
    await eventually(
      async () =>
        receiver.calls.length === count && (await queueDepth(queues)).total === 0 && poller.inFlight === 0,
      'appels terminés',
      60_000,
    );
    const { manual } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(manual).toMatchObject({
      workflows_checked: count,
      workflows_processed: count,
      message: MESSAGES.scheduler.forcedSummary(count, count),
    });
    expect(manual?.executions.map((execution) => execution.workflowId).sort()).toEqual([...listed].sort());
    expect(manual?.executions.every((execution) => execution.status === 'success')).toBe(true);
    // The others did not write to the result: the crowded shard's item holds its listed runs' ends.
    const { Item } = await app.table.doc.send(
      new GetCommand({
        TableName: app.table.name,
        Key: schedulerRunShardKey('manual', 0),
        ConsistentRead: true,
      }),
    );
    expect(Object.keys(Item?.outcomes ?? {}).sort()).toEqual(
      listed.filter((id) => crowded.includes(id)).sort(),
    );
  });

  it('says which shards were not run when their claimer fails twice, and keeps it', async () => {
    await poller.stop();
    const record = workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/ok` });
    await new WorkflowRepository(app.table).create(record);
    const claimers = inProcessClaimers(app.logger, { wait: true });
    const metrics = new RecordedMetrics();
    const deps = { ...app, metrics, dueClaimers: claimers.claimers };
    const claimer = createDueClaimerHandler(deps);
    const failingShard = dueShardOf(record.id);
    let attempts = 0;
    claimers.bind(async (request) => {
      if (request.shard !== failingShard) return claimer(request);
      attempts += 1;
      throw new Error('Lot en échec');
    });

    const run = await adminSchedulerRun(deps, 'manual');

    expect(attempts).toBe(2);
    expect(metrics.countOf(METRIC.shardsNotRun)).toBe(1);
    expect(run).toMatchObject({
      success: false,
      workflows_checked: 0,
      workflows_processed: 0,
      error: MESSAGES.scheduler.shardsNotRun(1),
    });
    expect(run.error).toBe(
      "Erreur du planificateur: 1 lot(s) de workflows non traités, relancez l'exécution",
    );
    const { manual } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(manual).toMatchObject({ success: false, error: MESSAGES.scheduler.shardsNotRun(1) });
    // Its run was not claimed: still due for the next tick.
    expect(await queueDepth(queues)).toMatchObject({ total: 0 });
  });

  it('answers with the shards done when the wait ends, and the last result completes when the others finish', async () => {
    await poller.stop();
    const records = [0, 1, 2].map(() =>
      workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/ok` }),
    );
    for (const record of records) await new WorkflowRepository(app.table).create(record);
    const claimers = inProcessClaimers(app.logger, { wait: true });
    const deps = { ...app, dueClaimers: claimers.claimers };
    const claimer = createDueClaimerHandler(deps);
    // One shard's claimer holds on until the request has answered.
    const slowShard = dueShardOf(records[0]?.id ?? '');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let slowDone: Promise<unknown> = Promise.resolve();
    // The request stops waiting once every other shard has answered.
    let othersAnswered = 0;
    let allOthersAnswered: () => void = () => undefined;
    const othersDone = new Promise<void>((resolve) => {
      allOthersAnswered = resolve;
    });
    claimers.bind(async (request) => {
      if (request.shard !== slowShard) {
        const answer = await claimer(request);
        othersAnswered += 1;
        // Once the last answer has reached the request (after the microtasks carrying it).
        if (othersAnswered === DUE_SHARDS - 1) setImmediate(allOthersAnswered);
        return answer;
      }
      const done = released.then(() => claimer(request));
      slowDone = done;
      return done;
    });
    const inSlowShard = records.filter((record) => dueShardOf(record.id) === slowShard).length;

    const run = await adminSchedulerRun(deps, 'manual_force', { stopWaiting: othersDone });

    expect(run).toMatchObject({
      success: true,
      workflows_checked: 3 - inSlowShard,
      message: MESSAGES.scheduler.withShardsPending(
        MESSAGES.scheduler.forcedSummary(3 - inSlowShard, 3 - inSlowShard),
        1,
      ),
    });
    expect(run.message).toMatch(
      /\(1 lot\(s\) encore en cours : actualisez la page dans un instant pour le résultat complet\)$/,
    );

    release();
    await slowDone;
    const { manual } = await new SchedulerRunRepository(app.table).lastRuns();
    expect(manual).toMatchObject({
      success: true,
      workflows_checked: 3,
      workflows_processed: 3,
      message: MESSAGES.scheduler.forcedSummary(3, 3),
    });
  });
});
