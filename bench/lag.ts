import { WEBHOOK_QUEUE } from '../functions/domain/scheduling/scheduling-settings';
import { createScheduledTickHandler } from '../functions/handlers/scheduling/scheduled-tick';
import { createWebhookWorkerHandler } from '../functions/handlers/scheduling/webhook-worker';
import { startMinuteTimer } from '../lib/local/queue/minute-timer';
import { startQueuePoller } from '../lib/local/queue/poller';
import { GLOBAL_SCHEDULING } from '../shared/constants';
import { apiRequest, createWorkflow, startApiWorld } from './api-calls';
import { percentile } from './percentile';
import { quietLogger } from './quiet-logger';
import { startBenchReceiver } from './receiver';

/**
 * `npm run bench -- lag`: automations scheduled as a person schedules them, on the real clock.
 * Each one is created, then its scheduling switched on through the API at a random second of the
 * first minute; the minute timer runs the tick (as EventBridge Scheduler does, at the start of each
 * minute), the poller plays the worker's event source, a receiver notes each call's start. Every
 * call's lag is its start less the due time its body carries, per interval group.
 */

export interface LagGroup {
  readonly intervalMinutes: number;
  readonly automations: number;
  readonly calls: number;
  /** Calls expected from the due times within the window (each automation's first run included). */
  readonly expected: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Calls that started before their due time. */
  readonly early: number;
  /** Runs called more than once (same automation, same due time). */
  readonly twice: number;
}

export interface LagFigures {
  readonly minutes: number;
  readonly groups: readonly LagGroup[];
}

export async function measureLag(
  endpoint: string,
  options: {
    readonly perGroup: number;
    readonly minutes: number;
    readonly log: (line: string) => void;
  },
): Promise<LagFigures> {
  const world = await startApiWorld(endpoint, { claimersWait: false });
  const receiver = await startBenchReceiver(200);
  try {
    const admin = await world.signIn(world.seed.adminLicenseKey);
    const groups = [
      { intervalMinutes: 1, type: 'client_reminder' },
      { intervalMinutes: 2, type: 'client_management' },
    ] as const;
    const intervalOf = new Map<string, number>();
    for (const group of groups) {
      for (let index = 0; index < options.perGroup; index++) {
        const id = await createWorkflow(world, admin, {
          name: `Relance ${group.intervalMinutes} min ${index}`,
          type: group.type,
          webhookUrl: receiver.url,
        });
        intervalOf.set(id, group.intervalMinutes);
      }
    }
    const poller = startQueuePoller({
      client: world.queues.client,
      queueUrl: world.queues.queueUrl,
      handler: createWebhookWorkerHandler(world.deps),
      maxConcurrency: GLOBAL_SCHEDULING.maxConcurrentWorkflows,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: quietLogger,
    });
    const tick = createScheduledTickHandler(world.deps);
    const timer = startMinuteTimer(() => tick({}), quietLogger, { firstTickDelayMs: 60_000 });
    const start = Date.now();
    options.log(
      `  ${intervalOf.size} automatisations planifiées à des secondes au hasard, ${options.minutes} min d'horloge réelle...`,
    );
    // Each switched on at a random moment of the first minute, by its lawyer's own switch.
    const lawyer = await world.signIn(world.seed.lawyerLicenseKey);
    const scheduledAt = new Map<string, number>();
    await Promise.all(
      [...intervalOf.keys()].map(async (id) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 60_000));
        scheduledAt.set(id, Date.now());
        await world.send(
          'workflows',
          apiRequest('POST', `/api/workflows/${id}/toggle-scheduling`, {
            token: lawyer,
            routePath: '/api/workflows/{id}/toggle-scheduling',
            pathParameters: { id },
          }),
        );
      }),
    );
    const end = start + options.minutes * 60_000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, end - Date.now())));
    await timer.stop();
    await poller.stop();
    // Runs due within the window, less the last 30 s (their calls may still be on their way).
    const cutoff = end - 30_000;
    const seen = new Set<string>();
    const figures = groups.map((group): LagGroup => {
      const calls = receiver.starts.filter(
        (call) =>
          intervalOf.get(call.workflowId) === group.intervalMinutes && Date.parse(call.dueAt ?? '') < cutoff,
      );
      let twice = 0;
      for (const call of calls) {
        const run = `${call.workflowId}@${call.dueAt}`;
        if (seen.has(run)) twice += 1;
        seen.add(run);
      }
      const lags = calls.map((call) => call.at - Date.parse(call.dueAt ?? '')).sort((a, b) => a - b);
      return {
        intervalMinutes: group.intervalMinutes,
        automations: options.perGroup,
        calls: calls.length,
        expected: [...intervalOf]
          .filter(([, interval]) => interval === group.intervalMinutes)
          .reduce((sum, [id]) => {
            const first = scheduledAt.get(id) ?? cutoff;
            return sum + Math.max(0, Math.floor((cutoff - first) / (group.intervalMinutes * 60_000)) + 1);
          }, 0),
        p50Ms: percentile(lags, 50),
        p99Ms: percentile(lags, 99),
        maxMs: lags[lags.length - 1] ?? 0,
        early: lags.filter((lag) => lag < 0).length,
        twice,
      };
    });
    return { minutes: options.minutes, groups: figures };
  } finally {
    await receiver.stop();
    await world.stop();
  }
}
