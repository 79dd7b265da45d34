import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { DUE_SHARDS, dueShardOf } from '../../functions/data/keys';
import { SchedulerRunRepository } from '../../functions/data/scheduler-runs';
import type { Table } from '../../functions/data/table';
import { WorkflowRepository } from '../../functions/data/workflows';
import { createDueClaimerHandler } from '../../functions/due-claimer';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { inProcessClaimers } from '../../functions/runtime/in-process-claimers';
import { createScheduledTickHandler } from '../../functions/scheduled-tick';
import { type LocalQueues, startLocalQueues } from '../../lib/local/queue/local-queues';
import type { QueuePoller } from '../../lib/local/queue/poller';
import { MESSAGES } from '../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../support/app';
import { workflowRecord } from '../support/records';
import {
  eventually,
  queueDepth,
  receiveAll,
  startTestReceiver,
  startWorkerPoller,
  type TestReceiver,
} from '../support/scheduling';

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
      workflowRecord({ cronEnabled: true, webhookUrl: `${receiver.baseUrl}/w/${index}` }),
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
    for (const message of messages) {
      expect(message.dispatchId).toBe(`${message.workflowId}:${result.tickAt}`);
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

    const tickAt = crashing.clock.now().toISOString();
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
    expect(receiver.calls[0]?.headers['webhook-id']).toBe(`${workflow.id}:${tickAt}`);
    expect(
      base.logger.lines.some((line) => line.includes('Exécution déjà terminée : message en double ignoré')),
    ).toBe(true);
    // And claimed now: a third tick finds nothing due.
    await createScheduledTickHandler(healthy)({});
    expect(await queueDepth(queues)).toMatchObject({ total: 0 });
  });
});
