import { createWebhookDelivery } from '../../adapters/scheduling/webhook-delivery';
import type { WebhookDelivery } from '../../domain/scheduling/ports';
import { type ReportLinks, signedReportLinks } from '../../domain/scheduling/report-links';
import type { SchedulingPorts } from '../scheduling-ports';

/** The webhook calls of a world: signed with its secret, private addresses only where it allows them. */
export const webhookDeliveryOf = (
  deps: Pick<SchedulingPorts, 'webhookSigningSecret' | 'allowPrivateWebhooks'>,
): WebhookDelivery =>
  createWebhookDelivery({
    signingSecret: deps.webhookSigningSecret,
    allowPrivate: deps.allowPrivateWebhooks,
  });

/** The completion-report links the webhook bodies of a world carry: signed, on its public origin. */
export const reportLinksOf = (
  deps: Pick<SchedulingPorts, 'webhookSigningSecret' | 'publicApiUrl'>,
): ReportLinks =>
  signedReportLinks({ webhookSigningSecret: deps.webhookSigningSecret, origin: deps.publicApiUrl });
