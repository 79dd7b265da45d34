import { SchedulerResult } from '../../../shared/schemas/scheduler';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { adminSchedulerRun, deadLettersOf, schedulerRunsOf } from '../../runtime/services/scheduling';

/** The most dead-lettered runs one redrive sends back. */
const REDRIVE_LIMIT = 1_000;

/**
 * The admin side of the scheduler (spec §2 /admin/settings, §7 workflow-scheduler):
 * POST /api/workflow-scheduler runs it once ('Déclencher Maintenant', forced or not),
 * GET /api/scheduler/status gives the last results and the dead-letter count,
 * POST /api/dead-letters/redrive sends dead-lettered runs back for another try.
 */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    workflowScheduler: async ({ body }) => {
      const run = await adminSchedulerRun(deps, body.trigger);
      // The reply is the spec's result; which trigger started it is the caller's own knowledge.
      return SchedulerResult.parse(run);
    },
    schedulerStatus: async () => {
      const [runs, deadLetterCount] = await Promise.all([
        schedulerRunsOf(deps.table).lastRuns(),
        deps.webhookQueue.deadLetterCount().catch((error: unknown) => {
          deps.logger.warn('File des échecs illisible', {
            errorName: error instanceof Error ? error.name : 'inconnu',
          });
          return null;
        }),
      ]);
      return { lastScheduledRun: runs.schedule, lastManualRun: runs.manual, deadLetterCount };
    },
    redriveDeadLetters: async ({ session }) => {
      const reply = await deadLettersOf(deps).sendBack(REDRIVE_LIMIT);
      deps.logger.info('Exécutions en échec renvoyées', {
        moved: reply.moved,
        ...reply.notSent,
        by: session.email,
      });
      return reply;
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createWorkflowSchedulerHandler = declaredFunction('workflow-scheduler', create);

export const handler = lambdaEntry('workflow-scheduler', createWorkflowSchedulerHandler);
