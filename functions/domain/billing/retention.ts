import type { Clock, Logger } from '../core/ports';
import { RETENTION_ACTOR } from '../directory/audit';
import type { LawyerService } from '../directory/lawyers';
import type { Subscriptions } from './ports';

/** How many ended subscriptions one run looks at; the next run takes the rest. */
export const PURGE_BATCH_SIZE = 100;

export interface DataRetentionDependencies {
  readonly subscriptions: Pick<Subscriptions, 'purgeDue' | 'clearCancellation' | 'markPurged'>;
  /** Deletes a lawyer's data the way an admin's deletion does. */
  readonly lawyers: Pick<LawyerService, 'purgeLicenseHolder'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** What one run did, for the logs (no e-mail, no key: licences are named by their hash only). */
export interface RetentionRun {
  /** Ended subscriptions whose purge date had come. */
  readonly due: number;
  /** Licences whose lawyer's data (or the licence alone) was deleted. */
  readonly purged: number;
  /** Licences active again, taken out of the purge index. */
  readonly reactivated: number;
  /** Licences already deleted with their lawyer (by an admin): nothing left to purge. */
  readonly absent: number;
  /** Licences whose purge failed: they stay due, for the next run. */
  readonly failed: number;
}

/**
 * Spec §9 retention: the data of a lawyer is kept 30 days after his subscription ended, then
 * deleted; billing records stay 5 years. Cancellations record their purge date in an index
 * (`Subscriptions.recordCancellation`); each run reads the due ones from that index —
 * never a Scan — and purges them one by one, so one failure does not hold the others back.
 */
export class DataRetention {
  private readonly subscriptions: DataRetentionDependencies['subscriptions'];

  constructor(private readonly deps: DataRetentionDependencies) {
    this.subscriptions = deps.subscriptions;
  }

  async purgeDue(limit = PURGE_BATCH_SIZE): Promise<RetentionRun> {
    const now = this.deps.clock.now();
    const due = await this.subscriptions.purgeDue(now, limit);
    let purged = 0;
    let reactivated = 0;
    let absent = 0;
    let failed = 0;
    for (const { keyHash, canceledAt } of due) {
      try {
        const outcome = await this.deps.lawyers.purgeLicenseHolder(keyHash, RETENTION_ACTOR);
        if (outcome === 'active') {
          reactivated++;
          await this.subscriptions.clearCancellation(keyHash);
        } else {
          if (outcome === 'purged') purged++;
          else absent++;
          await this.subscriptions.markPurged(keyHash, new Date(canceledAt), now);
        }
      } catch (error) {
        failed++;
        this.deps.logger.error('Suppression des données après résiliation en échec', {
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      }
    }
    const run = { due: due.length, purged, reactivated, absent, failed };
    if (due.length > 0) this.deps.logger.info('Rétention des données appliquée', { ...run });
    return run;
  }
}
