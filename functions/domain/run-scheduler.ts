import { MESSAGES } from '../../shared/messages';
import type { SchedulerRun } from '../../shared/schemas/scheduler';
import { SchedulerRunRepository } from '../data/scheduler-runs';
import type { AppDependencies } from '../runtime/dependencies';
import { lastResultOf, SchedulerService, type SchedulerTrigger } from './scheduler';

/** A scheduler run as its callers see it: the result, and the error that stopped it if any. */
export interface RecordedSchedulerRun {
  readonly run: SchedulerRun;
  /** Set when the run could not finish (the table or the queue failed); the result says so too. */
  readonly failure?: unknown;
}

/**
 * Runs the scheduler once and keeps its result for /admin/settings. Never throws: a run that
 * could not finish is a result with `success: false` and the French error, plus the failure for
 * the callers that must report it (the scheduled tick fails its invocation so it is retried).
 */
export async function runScheduler(
  deps: AppDependencies,
  trigger: SchedulerTrigger,
): Promise<RecordedSchedulerRun> {
  const service = new SchedulerService({
    table: deps.table,
    queue: deps.webhookQueue,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  let recorded: RecordedSchedulerRun;
  try {
    recorded = { run: await service.run(trigger) };
  } catch (failure) {
    deps.logger.error('Planificateur interrompu', {
      trigger,
      errorName: failure instanceof Error ? failure.name : 'inconnu',
      errorMessage: failure instanceof Error ? failure.message : undefined,
    });
    recorded = {
      run: {
        trigger,
        success: false,
        timestamp: deps.clock.now().toISOString(),
        workflows_checked: 0,
        executions: [],
        message: MESSAGES.scheduler.failed,
        error: MESSAGES.scheduler.unexpected,
      },
      failure,
    };
  }
  await new SchedulerRunRepository(deps.table).save(lastResultOf(recorded.run)).catch((error: unknown) => {
    deps.logger.warn('Résultat du planificateur non enregistré', {
      errorName: error instanceof Error ? error.name : 'inconnu',
    });
  });
  return recorded;
}
