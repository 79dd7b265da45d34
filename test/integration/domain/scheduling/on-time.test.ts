import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { dueShardOf } from '../../../../functions/data/table/due-index';
import type { DispatchEntry, DispatchQueue } from '../../../../functions/domain/scheduling/ports';
import { runDispatchOf, schedulerServiceOf } from '../../../../functions/runtime/services/scheduling';
import { type LocalQueues, startLocalQueues } from '../../../../lib/local/queue/local-queues';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { workflowRecord } from '../../../support/records';

/** The budget of a run's call after its due time, at p99 and here for every run. */
const ON_TIME_MS = 5_000;
const MINUTE = 60_000;

/**
 * On the domain clock: a workflow switched on at any second of a minute, ticks that EventBridge
 * Scheduler calls at any second of their minute, and every run due over the next quarter of an
 * hour leaves SQS within 5 s of its due time (its message sent then, with the delay left), once.
 */
describe('runs on time, whatever the interval and the second of scheduling', () => {
  let app: TestApp;
  let queues: LocalQueues;

  beforeEach(async () => {
    queues = await startLocalQueues();
    app = await createTestApp(inject('dynamoEndpoint'));
  });
  afterEach(async () => {
    await disposeTestApp(app);
    await queues.stop();
  });

  it('calls every run of a 1-, 2- or 60-minute automation within 5 s of its due time, the first one included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1, 2, 60),
        fc.integer({ min: 0, max: 59_999 }),
        // Any second of its minute, the ends of the minute often (a tick early, the next one late).
        fc.array(fc.oneof(fc.constantFrom(0, 59_000), fc.integer({ min: 0, max: 59_000 })), {
          minLength: 16,
          maxLength: 16,
        }),
        async (interval, scheduledAtMs, tickSeconds) => {
          const start = app.clock.now().getTime();
          const sent: { readonly entry: DispatchEntry; readonly at: number }[] = [];
          const queue: DispatchQueue = {
            ...queues.dispatchQueue,
            sendBatch: (entries) => {
              const at = app.clock.now().getTime();
              for (const entry of entries) sent.push({ entry, at });
              return queues.dispatchQueue.sendBatch(entries);
            },
          };
          const scheduler = schedulerServiceOf({
            table: app.table,
            queue,
            clock: app.clock,
            logger: app.logger,
          });

          // Switched on at some second of the minute: its first run is due then, and leaves at once.
          app.clock.advance(scheduledAtMs);
          const switchedOnAt = app.clock.now();
          const workflow = workflowRecord({
            cronEnabled: true,
            cronInterval: interval,
            createdAt: switchedOnAt.toISOString(),
            updatedAt: switchedOnAt.toISOString(),
          });
          await new WorkflowRepository(app.table).create(workflow);
          await runDispatchOf({
            table: app.table,
            queue,
            clock: app.clock,
            logger: app.logger,
          }).startSchedule(workflow.id);

          // The minute ticks, each at some second of its minute.
          const firstMinute = Math.floor(switchedOnAt.getTime() / MINUTE) * MINUTE + MINUTE;
          let lastTick = switchedOnAt.getTime();
          for (const [index, second] of tickSeconds.entries()) {
            const tickAt = firstMinute + index * MINUTE + second;
            app.clock.advance(tickAt - app.clock.now().getTime());
            await scheduler.claimShard(dueShardOf(workflow.id), new Date(tickAt));
            lastTick = tickAt;
          }

          // Every run due up to the last tick, from the second it was switched on, every interval.
          const expected: string[] = [];
          for (let due = switchedOnAt.getTime(); due <= lastTick; due += interval * MINUTE) {
            expected.push(new Date(due).toISOString());
          }
          const leaves = new Map<string, number[]>();
          for (const { entry, at } of sent) {
            const { dueAt, workflowId } = entry.message;
            if (workflowId !== workflow.id || dueAt === null || Date.parse(dueAt) > lastTick) continue;
            leaves.set(dueAt, [...(leaves.get(dueAt) ?? []), at + entry.delaySeconds * 1000]);
          }
          expect([...leaves.keys()].sort()).toEqual(expected);
          for (const [dueAt, times] of leaves) {
            // Once each, never before its time, and within 5 s of it.
            expect(times).toHaveLength(1);
            const late = (times[0] ?? 0) - Date.parse(dueAt);
            expect(late).toBeGreaterThanOrEqual(0);
            expect(late).toBeLessThan(ON_TIME_MS);
          }
          app.clock.advance(start + 24 * 60 * MINUTE - app.clock.now().getTime());
        },
      ),
      { numRuns: 20 },
    );
  });
});
