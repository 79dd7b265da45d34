import type { ReportLink } from '../../../shared/schemas/completion-report';
import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import type { Clock } from '../core/ports';
import type { WorkflowRecord } from '../directory/ports';
import type { DeliveryOutcome, WebhookDelivery } from './ports';
import type { ReportLinks } from './report-links';
import { WEBHOOK_TIMEOUT_MS } from './scheduling-settings';

/** What the workflow engine receives: who runs, why, and for which due time. */
export interface WebhookBody {
  readonly workflowId: string;
  readonly workflowName: string;
  readonly type: string;
  readonly trigger: ExecutionTrigger;
  /** The due time of a scheduled run; null for a manual one. */
  readonly dueAt: string | null;
  /** When this attempt started. */
  readonly timestamp: string;
  readonly source: 'notary_app';
  /** 'Tester la connexion': a test call, for the workflow to answer without doing its work. */
  readonly test?: true;
  /** Where the workflow posts its completion report, once, within 24 hours (docs/n8n-completion-report.md). */
  readonly report: ReportLink;
}

/** What a webhook call needs: the time, and the delivery of the world it runs in. */
export interface WebhookCallSettings {
  readonly clock: Clock;
  readonly webhooks: WebhookDelivery;
  /** The report link each body carries. */
  readonly reportLinks: ReportLinks;
}

export interface WebhookCall {
  readonly trigger: ExecutionTrigger;
  readonly dueAt: string | null;
  /** The webhook-id header: the same for every attempt of one run. */
  readonly messageId: string;
  /** A connection test: the body says so. */
  readonly test?: true;
  /**
   * What the body's report link names: a replay reports under an id of its own, counted as a
   * replay. @default the call's `messageId` and `trigger`
   */
  readonly report?: { readonly runId: string; readonly trigger: ExecutionTrigger };
}

/**
 * One signed call of a workflow's webhook, through the SSRF-guarded delivery: the one code path of
 * scheduled and manual runs. Never throws for what the receiver or the network does.
 */
export async function callWorkflowWebhook(
  workflow: Pick<WorkflowRecord, 'id' | 'name' | 'type' | 'webhookUrl'>,
  call: WebhookCall,
  settings: WebhookCallSettings,
): Promise<{ startedAt: string; outcome: DeliveryOutcome }> {
  const started = settings.clock.now();
  const body: WebhookBody = {
    workflowId: workflow.id,
    workflowName: workflow.name,
    type: workflow.type,
    trigger: call.trigger,
    dueAt: call.dueAt,
    timestamp: started.toISOString(),
    source: 'notary_app',
    ...(call.test ? { test: true as const } : {}),
    report: await settings.reportLinks.linkOf({
      workflowId: workflow.id,
      runId: call.report?.runId ?? call.messageId,
      trigger: call.report?.trigger ?? call.trigger,
      startedAt: started.toISOString(),
    }),
  };
  const outcome = await settings.webhooks.deliver({
    url: workflow.webhookUrl,
    body,
    messageId: call.messageId,
    timestamp: Math.floor(started.getTime() / 1000),
    timeoutMs: WEBHOOK_TIMEOUT_MS,
  });
  return { startedAt: started.toISOString(), outcome };
}
