import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import type { SchedulerTrigger } from '../../../../functions/domain/scheduling/scheduler';
import { schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
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
} from '../../../support/scheduling';

/**
 * Issue 14 §4: concurrent forced runs ('Exécution forcée' clicked twice, or by two admins) call
 * each scheduled workflow once, with one webhook-id, through the real queue, worker and receiver.
 */
describe('concurrent forced scheduler runs', () => {
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let poller: QueuePoller;

  beforeEach(async () => {
    queues = await startLocalQueues({ visibilityTimeoutSeconds: 30 });
    app = { ...(await createTestApp(inject('dynamoEndpoint'))), webhookQueue: queues.dispatchQueue };
    receiver = await startTestReceiver(app);
    poller = startWorkerPoller(queues, app);
  });
  afterEach(async () => {
    await poller.stop();
    await receiver.stop();
    await queues.stop();
    await disposeTestApp(app);
  });

  const scheduler = (trigger: SchedulerTrigger) =>
    schedulerServiceOf({
      table: app.table,
      queue: app.webhookQueue,
      clock: app.clock,
      logger: app.logger,
    }).run(trigger);
  const forced = () => scheduler('manual_force');
  const delivered = (calls: number) =>
    eventually(
      async () =>
        receiver.calls.length >= calls && (await queueDepth(queues)).total === 0 && poller.inFlight === 0,
      'appels livrés',
    );

  async function scheduledWorkflows(count: number): Promise<WorkflowRecord[]> {
    return Promise.all(
      Array.from({ length: count }, async (_, index) => {
        // Hourly: a tick queues its first run alone (a claim takes the runs of the next ten minutes).
        const record = workflowRecord({
          cronEnabled: true,
          cronInterval: 60,
          webhookUrl: `${receiver.baseUrl}/flux-${index}`,
        });
        await new WorkflowRepository(app.table).create(record);
        return record;
      }),
    );
  }

  it.each([2, 5])(
    '%i overlapping forced runs call each of 5 workflows exactly once, with one webhook-id',
    async (runs) => {
      const workflows = await scheduledWorkflows(5);

      // As clicks come: the first run has claimed and queued when the next ones start, together,
      // each a little later on the clock (so that their slots, and webhook-ids, would differ).
      const started: ReturnType<typeof forced>[] = [forced()];
      await started[0];
      for (let run = 1; run < runs; run++) {
        app.clock.advance(300);
        started.push(forced());
      }
      const results = await Promise.all(started);
      await delivered(workflows.length);

      const queued = results.flatMap((result) => result.executions);
      expect(queued).toHaveLength(workflows.length);
      // The later runs found them claimed by the first: queued already, and their summary says so.
      for (const later of results.slice(1)) {
        expect(later.message).toBe(MESSAGES.scheduler.forcedSummary(0, workflows.length, workflows.length));
      }
      expect(receiver.calls).toHaveLength(workflows.length);
      workflows.forEach((workflow, index) => {
        const calls = receiver.callsOn(`/flux-${index}`);
        expect(calls).toHaveLength(1);
        expect(calls[0]?.headers['webhook-id']).toMatch(new RegExp(`^${workflow.id}:`));
      });
    },
  );

  it('runs them again once the window has passed', async () => {
    const [workflow] = await scheduledWorkflows(1);
    await forced();
    await eventually(() => receiver.calls.length === 1, 'premier appel');

    app.clock.advance(61_000);
    await Promise.all([forced(), forced()]);
    await delivered(2);

    expect(receiver.callsOn('/flux-0')).toHaveLength(2);
    const ids = receiver.calls.map((call) => call.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
    expect(ids.every((id) => String(id).startsWith(`${workflow?.id}:`))).toBe(true);
  });

  it("says that the minute tick's runs are queued already, rather than a bare '0 mise en file'", async () => {
    await scheduledWorkflows(2);
    // Scheduled without a run, both are due at once: the minute tick claims and queues them.
    expect((await scheduler('schedule')).workflows_processed).toBe(2);
    app.clock.advance(20_000);

    const result = await forced();

    expect(result.message).toBe(
      "Exécution forcée: 0 mise en file sur 2 workflows vérifiés (2 déjà en file depuis moins d'une minute)",
    );
    expect(result.executions).toEqual([]);
    await delivered(2);
    expect(receiver.calls).toHaveLength(2);

    // Once the window has passed, forced runs them again; the summary has nothing to add.
    app.clock.advance(41_000);
    expect((await forced()).message).toBe('Exécution forcée: 2 mises en file sur 2 workflows vérifiés');
    await delivered(4);
  });
});
