import { METRIC } from './domain/metrics';
import { runScheduler } from './domain/run-scheduler';
import type { AppDependencies } from './runtime/dependencies';
import { declaredFunction, lambdaEntry } from './runtime/entry';

/** What the minute schedule sends (EventBridge Scheduler passes its target's input through). */
export type ScheduledTickEvent = unknown;

/** What a tick returns, for the logs of an invocation. */
export interface ScheduledTickResult {
  readonly checked: number;
  readonly dispatched: number;
  readonly failed: number;
}

/**
 * The target of the one-minute EventBridge schedule (and of the local one-minute timer): one
 * scheduler run. A run that could not finish fails the invocation, so that the schedule's retry
 * policy tries again and its dead-letter queue keeps what never succeeded; overlapping runs are
 * harmless, each due slot is claimed once.
 */
const create =
  (deps: AppDependencies) =>
  async (_event: ScheduledTickEvent): Promise<ScheduledTickResult> => {
    const { run, failure } = await runScheduler(deps, 'schedule');
    if (failure) throw failure;
    // The heartbeat: its absence for five minutes is an alarm (lib/constructs/monitoring.ts).
    deps.metrics.count(METRIC.tickCompleted);
    const dispatched = run.executions.filter((execution) => execution.status === 'queued').length;
    return {
      checked: run.workflows_checked,
      dispatched,
      failed: run.executions.length - dispatched,
    };
  };

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createScheduledTickHandler = declaredFunction('scheduled-tick', create);

export const handler = lambdaEntry('scheduled-tick', createScheduledTickHandler);
