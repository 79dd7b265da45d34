import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import type { Resolver } from '../../adapters/scheduling/ssrf-guard';
import { type DeliveryOutcome, deliverWebhook } from '../../adapters/scheduling/webhook-delivery';
import type { WorkflowRecord } from '../../data/directory/workflows';
import type { Clock } from '../../runtime/dependencies';
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
}

export interface WebhookCallSettings {
  readonly clock: Clock;
  /** The per-deployment `whsec_…` secret the calls are signed with. */
  readonly webhookSigningSecret: () => Promise<string>;
  /** Local runtime only: private and loopback addresses may be called. */
  readonly allowPrivateWebhooks: boolean;
  /** Tests only: a resolver of their own. */
  readonly resolve?: Resolver;
}

export interface WebhookCall {
  readonly trigger: ExecutionTrigger;
  readonly dueAt: string | null;
  /** The webhook-id header: the same for every attempt of one run. */
  readonly messageId: string;
  /** A connection test: the body says so. */
  readonly test?: true;
  /** Told once the request is on its way. */
  readonly onSent?: () => void;
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
  };
  const outcome = await deliverWebhook({
    url: workflow.webhookUrl,
    body,
    messageId: call.messageId,
    timestamp: Math.floor(started.getTime() / 1000),
    secret: await settings.webhookSigningSecret(),
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    allowPrivate: settings.allowPrivateWebhooks,
    ...(settings.resolve ? { resolve: settings.resolve } : {}),
    ...(call.onSent ? { onSent: call.onSent } : {}),
  });
  return { startedAt: started.toISOString(), outcome };
}
