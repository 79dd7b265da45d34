import { randomUUID } from 'node:crypto';

import { MANUAL_RUN_LOCK_MS } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import { REPLAY_MESSAGES } from '../../../shared/report-messages';
import type {
  ExecuteWebhookReply,
  ExecuteWebhookRequest,
  Execution,
  ExecutionTrigger,
  ReplayReply,
  ReplayRequest,
} from '../../../shared/schemas/scheduler';
import { ConflictError, InvalidInputError, NotFoundError, TooManyAttemptsError } from '../core/errors';
import type { Logger } from '../core/ports';
import { visibleWorkflow } from '../directory/members';
import type { Lawyers, WorkflowRecord, Workflows } from '../directory/ports';
import type { SessionContext } from '../identity/sessions';
import type { CallEndings, Executions, SentRun, WorkflowRuns } from './ports';
import { callWorkflowWebhook, type WebhookCallSettings } from './webhook-call';

export interface ManualRunDependencies extends WebhookCallSettings {
  readonly workflows: Pick<Workflows, 'getById'>;
  readonly lawyers: Pick<Lawyers, 'findByLicenseHash' | 'findByEmail'>;
  readonly runs: Pick<WorkflowRuns, 'lockManualRun'>;
  readonly executions: Pick<Executions, 'record'>;
  /** Where the run's end counts in the automation's health. */
  readonly health: CallEndings;
  /** A row of a workflow's history by its start and id ('Rejouer'). */
  recordedRun(workflowId: string, startedAt: string, executionId: string): Promise<RecordedRun | null>;
  /** False when the automation owner's licence is known and inactive (an admin's replay is then refused). */
  ownerLicenseActive(lawyerEmail: string): Promise<boolean>;
  readonly logger: Logger;
}

/** A row of the history, as 'Rejouer' reads it. */
export interface RecordedRun {
  readonly trigger: ExecutionTrigger;
  readonly outcome: Execution['outcome'];
  /** What its body was sent as; null for a call recorded before runs had an id. */
  readonly sentAs: SentRun | null;
}

/** One call made on a person's click: what it sends, and how the history records it. */
interface ClickedCall {
  readonly sent: SentRun;
  /** The id its report names and the history records. */
  readonly runId: string;
  readonly recordedAs: 'manual' | 'replay';
  readonly replayOf?: SentRun;
  readonly done: string;
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
    const runId = `${workflow.id}:manual:${randomUUID()}`;
    return this.callAndRecord(caller, workflow, {
      sent: { webhookId: runId, trigger: 'manual', dueAt: null },
      runId,
      recordedAs: 'manual',
      done: MESSAGES.workflow.workflowExecuted,
    });
  }

  /**
   * 'Rejouer': a run of the history sent again as a new attempt, with the same body (workflow,
   * trigger, due time) and the same `webhook-id`, so that n8n can drop it if it already did the
   * work; recorded as a replay, under the 30-second lock of 'Exécuter' (the two share it). The
   * replay carries a report link of its own (its `report.runId` is new): the first one may have been
   * used or expired, and the replay's outcome is what the firm wants to see. A person's decision:
   * sent whether scheduling is on or off.
   */
  async replay(caller: SessionContext, workflowId: string, request: ReplayRequest): Promise<ReplayReply> {
    const workflow = await visibleWorkflow(this.deps.workflows, this.deps.lawyers, caller, workflowId);
    if (!workflow.active && caller.role !== 'admin') {
      throw new ConflictError(MESSAGES.execution.workflowInactive);
    }
    // A signed-in member's licence is active; an admin may name a firm whose licence has ended.
    if (caller.role === 'admin' && !(await this.deps.ownerLicenseActive(workflow.lawyerEmail))) {
      throw new ConflictError(REPLAY_MESSAGES.licenseInactive);
    }
    const original = await this.deps.recordedRun(workflow.id, request.startedAt, request.executionId);
    if (!original) throw new NotFoundError(REPLAY_MESSAGES.notFound);
    if (original.trigger === 'test') throw new ConflictError(REPLAY_MESSAGES.notARun);
    if (original.outcome === 'cancelled') throw new ConflictError(REPLAY_MESSAGES.cancelled);
    const sent = original.sentAs;
    if (!sent) throw new ConflictError(REPLAY_MESSAGES.notReplayable);
    await this.lock(workflow.id);
    return this.callAndRecord(caller, workflow, {
      sent,
      runId: `${sent.webhookId}:replay:${randomUUID()}`,
      recordedAs: 'replay',
      replayOf: sent,
      done: REPLAY_MESSAGES.done,
    });
  }

  /** Calls the webhook, records the call, counts it in the health (never towards the pause). */
  private async callAndRecord(
    caller: SessionContext,
    workflow: WorkflowRecord,
    call: ClickedCall,
  ): Promise<ExecuteWebhookReply> {
    const { startedAt, outcome } = await callWorkflowWebhook(
      workflow,
      {
        trigger: call.sent.trigger,
        dueAt: call.sent.dueAt,
        messageId: call.sent.webhookId,
        report: { runId: call.runId, trigger: call.recordedAs },
      },
      this.deps,
    );
    await this.deps.executions.record({
      workflowId: workflow.id,
      dispatchId: null,
      runId: call.runId,
      ...(call.replayOf ? { replayOf: call.replayOf } : {}),
      trigger: call.recordedAs,
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
            trigger: call.recordedAs,
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
    this.deps.logger.info(call.recordedAs === 'replay' ? 'Exécution rejouée' : 'Exécution manuelle', {
      workflowId: workflow.id,
      role: caller.role,
      httpStatus: outcome.httpStatus,
      ok: outcome.ok,
      failure: outcome.failure,
    });
    const status = outcome.httpStatus === null ? {} : { status: outcome.httpStatus };
    return outcome.ok
      ? { success: true, ...status, message: call.done }
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
