import { randomUUID } from 'node:crypto';

import { MANUAL_RUN_LOCK_MS } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { ExecuteWebhookReply, ExecuteWebhookRequest } from '../../../shared/schemas/scheduler';
import { ConflictError, InvalidInputError, TooManyAttemptsError } from '../core/errors';
import type { Logger } from '../core/ports';
import { visibleWorkflow } from '../directory/members';
import type { Lawyers, Workflows } from '../directory/ports';
import type { SessionContext } from '../identity/sessions';
import type { CallEndings, Executions, WorkflowRuns } from './ports';
import { callWorkflowWebhook, type WebhookCallSettings } from './webhook-call';

export interface ManualRunDependencies extends WebhookCallSettings {
  readonly workflows: Pick<Workflows, 'getById'>;
  readonly lawyers: Pick<Lawyers, 'findByLicenseHash' | 'findByEmail'>;
  readonly runs: Pick<WorkflowRuns, 'lockManualRun'>;
  readonly executions: Pick<Executions, 'record'>;
  /** Where the run's end counts in the automation's health. */
  readonly health: CallEndings;
  readonly logger: Logger;
}

/** Whether two webhook addresses are the same address once normalised; false if either is not one. */
function sameWebhookUrl(given: string, stored: string): boolean {
  try {
    return new URL(given.trim()).href === new URL(stored).href;
  } catch {
    return false;
  }
}

/**
 * A manual run (spec §4 and §7 execute-webhook): the caller names a workflow, the server calls that
 * workflow's own webhook, synchronously, through the same signed and SSRF-guarded delivery as the
 * scheduled runs, and records the call in the same history. No caller can make the server call an
 * address of his choosing: a webhook URL in the request must be the workflow's.
 */
export class ManualRunService {
  constructor(private readonly deps: ManualRunDependencies) {}

  async run(caller: SessionContext, request: ExecuteWebhookRequest): Promise<ExecuteWebhookReply> {
    const workflow = await visibleWorkflow(
      this.deps.workflows,
      this.deps.lawyers,
      caller,
      request.workflowId,
    );
    if (request.webhookUrl !== undefined && !sameWebhookUrl(request.webhookUrl, workflow.webhookUrl)) {
      throw new InvalidInputError('webhookUrl', MESSAGES.execution.invalidWebhookUrl);
    }
    if (!workflow.webhookUrl) throw new InvalidInputError('webhookUrl', MESSAGES.execution.invalidWebhookUrl);
    if (!workflow.active && caller.role !== 'admin') {
      throw new ConflictError(MESSAGES.execution.workflowInactive);
    }
    await this.lock(workflow.id);

    const { startedAt, outcome } = await callWorkflowWebhook(
      workflow,
      { trigger: 'manual', dueAt: null, messageId: `${workflow.id}:manual:${randomUUID()}` },
      this.deps,
    );
    await this.deps.executions.record({
      workflowId: workflow.id,
      dispatchId: null,
      trigger: 'manual',
      startedAt,
      durationMs: Math.round(outcome.durationMs),
      httpStatus: outcome.httpStatus,
      outcome: outcome.ok ? 'success' : 'failed',
      message: outcome.message,
      attempt: 1,
    });
    // A manual run counts in the health like any run (it never pauses: only due runs do).
    await this.deps.health
      .callsEnded([
        {
          workflow,
          call: {
            trigger: 'manual',
            outcome: outcome.ok ? 'succeeded' : 'failed',
            attempt: 1,
            startedAt,
            durationMs: outcome.durationMs,
            dueAt: null,
            httpStatus: outcome.httpStatus,
            message: outcome.message,
          },
        },
      ])
      .catch((error: unknown) => {
        this.deps.logger.error('Santé de l’automatisation non mise à jour', {
          workflowId: workflow.id,
          errorName: error instanceof Error ? error.name : 'inconnu',
        });
      });
    this.deps.logger.info('Exécution manuelle', {
      workflowId: workflow.id,
      role: caller.role,
      httpStatus: outcome.httpStatus,
      ok: outcome.ok,
      failure: outcome.failure,
    });
    const status = outcome.httpStatus === null ? {} : { status: outcome.httpStatus };
    return outcome.ok
      ? { success: true, ...status, message: MESSAGES.workflow.workflowExecuted }
      : { success: false, ...status, error: outcome.message };
  }

  /**
   * The 30-second lock of spec §4 and §9, held by the server too (the button's lock is only a
   * courtesy): one conditional write per run, so two clicks at once cannot both call.
   */
  private async lock(workflowId: string): Promise<void> {
    const now = this.deps.clock.now();
    const unlockedBefore = new Date(now.getTime() - MANUAL_RUN_LOCK_MS);
    if (!(await this.deps.runs.lockManualRun(workflowId, now, unlockedBefore))) {
      throw new TooManyAttemptsError(MESSAGES.execution.manualRunLocked);
    }
  }
}
