import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import { chunks, mapWithConcurrency } from '../core/concurrency';
import type { Clock, Logger } from '../core/ports';
import {
  CLAIM_HORIZON_MS,
  type ClaimedSlots,
  claimSlots,
  dispatchDelaySeconds,
  dispatchIdOf,
  intervalMinutesOf,
  TICK_REACH_MS,
} from './due-slots';
import type { DispatchEntry, DispatchQueue, DueWorkflow, WorkflowRuns } from './ports';
import type { RunReference } from './run-results';
import { CLAIMS, WEBHOOK_QUEUE } from './scheduling-settings';

export interface RunDispatchDependencies {
  readonly runs: Pick<WorkflowRuns, 'dueOf' | 'claim'>;
  readonly queue: DispatchQueue;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A due workflow and the runs a claim of it takes. */
export interface Plan {
  readonly read: DueWorkflow;
  readonly slots: ClaimedSlots;
}

/** What became of a plan's sends: all queued (the first in `delaySeconds`), or refused. */
export type Sent = { readonly queued: true; readonly delaySeconds: number } | { readonly queued: false };

/** How a run's messages are sent: its trigger, the run that lists them, which workflows it lists. */
export interface Sending {
  readonly trigger: ExecutionTrigger;
  readonly run?: RunReference;
  readonly listed: ReadonlySet<string>;
}

/**
 * Sends due workflows' runs to the webhook queue, each delayed to its due second, and claims what
 * it sent: the scheduler's sends, and the first runs of a workflow a write just scheduled, apart
 * from the scheduler so that a function starting a schedule carries no more than this.
 */
export class RunDispatch {
  constructor(private readonly deps: RunDispatchDependencies) {}

  /**
   * Sends a workflow's first runs at once when a write puts it in the schedule (switched on, an
   * edit, 'Reprendre'): stored due from that write (`withFirstDue`), its first run would otherwise
   * wait for the next tick, up to two minutes with EventBridge Scheduler. Queued, then claimed, as
   * the tick does: a tick reading the same slot meanwhile sends the same dispatch ids. Never throws:
   * what it could not send stays due for the next tick.
   */
  async startSchedule(workflowId: string): Promise<void> {
    try {
      const now = this.deps.clock.now();
      const read = await this.deps.runs.dueOf(workflowId);
      if (!read || read.dueAt > new Date(now.getTime() + TICK_REACH_MS).toISOString()) return;
      const plan = planOf(read, now);
      const [sent] = await this.send([plan], now, { trigger: 'schedule', listed: new Set() });
      if (sent?.queued) await this.claimSent(plan, now);
    } catch (error) {
      this.deps.logger.warn('Première exécution laissée au prochain passage du planificateur', {
        workflowId,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
    }
  }

  /**
   * Sends every run of the plans, ten to a batch, each delayed to its due second; a plan is queued
   * only if all its runs were (one refused leaves the plan's slot for the next tick, which sends its
   * runs again under the same dispatch ids).
   */
  async send(plans: readonly Plan[], now: Date, sending: Sending): Promise<Sent[]> {
    const entries = plans.flatMap((plan, index) =>
      plan.slots.dueAts.map((dueAt, slot) => ({
        plan: index,
        entry: entryOf(plan, dueAt, slot, now, sending),
      })),
    );
    const refused = new Map<number, string>();
    await mapWithConcurrency(
      chunks(entries, WEBHOOK_QUEUE.sendBatchSize),
      CLAIMS.sendConcurrency,
      async (batch) => {
        const { failed } = await this.deps.queue.sendBatch(batch.map(({ entry }) => entry));
        for (const { index, reason } of failed) {
          const plan = batch[index]?.plan;
          if (plan !== undefined && !refused.has(plan)) refused.set(plan, reason);
        }
      },
    );
    return plans.map((plan, index): Sent => {
      const reason = refused.get(index);
      if (reason === undefined) {
        return { queued: true, delaySeconds: dispatchDelaySeconds(plan.slots.dueAts[0] ?? '', now) };
      }
      this.deps.logger.error('Envoi à la file refusé', { workflowId: plan.read.workflow.id, reason });
      return { queued: false };
    });
  }

  /** Claims a plan already queued; lost to another run is no loss (it sent the same runs). */
  async claimSent(plan: Plan, now: Date): Promise<boolean> {
    try {
      return await this.deps.runs.claim(plan.read, plan.slots.nextRun, now);
    } catch (error) {
      // Queued but not moved on: the next tick sends it again under the same dispatch ids.
      this.deps.logger.warn('Créneau envoyé mais non réservé', {
        workflowId: plan.read.workflow.id,
        errorName: error instanceof Error ? error.name : 'inconnu',
      });
      return false;
    }
  }
}

/** The runs a claim at `now` takes of a due workflow. */
export function planOf(read: DueWorkflow, now: Date): Plan {
  return {
    read,
    slots: claimSlots(
      read.dueAt,
      intervalMinutesOf(read.workflow),
      now,
      new Date(now.getTime() + CLAIM_HORIZON_MS),
    ),
  };
}

/** One run's message: its dispatch id names its slot; only a plan's first run reports to a listing. */
function entryOf(plan: Plan, dueAt: string, slot: number, now: Date, sending: Sending): DispatchEntry {
  const { workflow } = plan.read;
  const reports = slot === 0 && sending.run !== undefined && sending.listed.has(workflow.id);
  return {
    message: {
      workflowId: workflow.id,
      dueAt,
      dispatchId: dispatchIdOf(workflow.id, dueAt),
      trigger: sending.trigger,
      ...(reports ? { run: sending.run } : {}),
    },
    delaySeconds: dispatchDelaySeconds(dueAt, now),
    firm: workflow.lawyerEmail,
  };
}
