import { REDRIVE_MESSAGES } from '../../../shared/report-messages';
import type { RedriveReply } from '../../../shared/schemas/scheduler';
import type { Clock, Logger } from '../core/ports';
import type { WorkflowRecord } from '../directory/ports';
import type { DispatchMessage, DispatchQueue, Executions } from './ports';

export interface DeadLetterDependencies {
  readonly queue: Pick<DispatchQueue, 'redriveDeadLetters'>;
  readonly executions: Pick<Executions, 'record'>;
  /** The workflow of a run, or null once deleted. */
  workflowOf(workflowId: string): Promise<WorkflowRecord | null>;
  /** False when the owner's licence is known and inactive; true otherwise (no licence bound included). */
  ownerLicenseActive(lawyerEmail: string): Promise<boolean>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * 'Relancer les exécutions en échec': an admin's decision to send the dead-lettered runs again. The
 * worker calls a sent-back run even when scheduling is off (the automatic pause, or the address fix
 * that followed it, switches it off, and fixing then resending is the natural sequence). Only what
 * cannot be sent is kept back, and the reply counts it by reason: a run whose automation was
 * deleted (dropped: its history went with it) or whose firm's licence is inactive (dropped, with a
 * line in its history saying so).
 */
export class DeadLetterService {
  constructor(private readonly deps: DeadLetterDependencies) {}

  async sendBack(limit: number): Promise<RedriveReply> {
    const notSent = { workflowDeleted: 0, licenseInactive: 0 };
    // One read per automation and per firm, however many of their runs wait.
    const workflows = new Map<string, Promise<WorkflowRecord | null>>();
    const licenses = new Map<string, Promise<boolean>>();
    const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => {
      const known = cache.get(key);
      if (known) return known;
      const reading = read();
      cache.set(key, reading);
      return reading;
    };

    const verdict = async (dispatch: DispatchMessage): Promise<'send' | 'drop'> => {
      const workflow = await once(workflows, dispatch.workflowId, () =>
        this.deps.workflowOf(dispatch.workflowId),
      );
      if (!workflow) {
        notSent.workflowDeleted += 1;
        this.deps.logger.info('Exécution non renvoyée : automatisation supprimée', {
          workflowId: dispatch.workflowId,
          dispatchId: dispatch.dispatchId,
        });
        return 'drop';
      }
      const licensed = await once(licenses, workflow.lawyerEmail, () =>
        this.deps.ownerLicenseActive(workflow.lawyerEmail),
      );
      if (licensed) return 'send';
      notSent.licenseInactive += 1;
      // Recorded under the trigger that started the run, as a run switched off is: 'Relancé'
      // in the history means the resend called it, and this one was not called.
      await this.deps.executions.record({
        workflowId: workflow.id,
        dispatchId: dispatch.dispatchId,
        trigger: dispatch.trigger,
        startedAt: this.deps.clock.now().toISOString(),
        durationMs: 0,
        httpStatus: null,
        outcome: 'cancelled',
        message: REDRIVE_MESSAGES.notResentLicenseInactive,
        attempt: 1,
      });
      return 'drop';
    };

    const { moved } = await this.deps.queue.redriveDeadLetters(limit, verdict);
    return { moved, notSent, message: REDRIVE_MESSAGES.redriven(moved, notSent) };
  }
}
