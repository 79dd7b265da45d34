import type { RetentionRun } from '../../domain/billing/retention';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { dataRetentionOf } from '../../runtime/services/billing';
import { lawyerServiceOf } from '../../runtime/services/directory';
import { healthAlertsOf } from '../../runtime/services/health';

/**
 * The target of the hourly retention schedule (and of the local timer): deletes the data of the
 * lawyers whose subscription ended 30 days ago (spec §9). A run with a failed purge fails the
 * invocation, so that the schedule's retry policy and dead-letter queue see it; the licences that
 * failed stay due and the next run tries them again.
 */
const create = (deps: AppDependencies) => async (_event: unknown) => {
  const run: RetentionRun = await dataRetentionOf(deps, await lawyerServiceOf(deps)).purgeDue();
  // The digest never fails the purge: it is logged and tried again at the next run of the day.
  if (deps.mail) {
    await healthAlertsOf({ ...deps, mail: deps.mail })
      .dailyDigest()
      .catch((error: unknown) => {
        deps.logger.error('Résumé quotidien de santé non envoyé', {
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      });
  }
  if (run.failed > 0) throw new Error(`Rétention : ${run.failed} suppression(s) en échec`);
  return run;
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createDataRetentionHandler = declaredFunction('data-retention', create);

export const handler = lambdaEntry('data-retention', createDataRetentionHandler);
