import middy from '@middy/core';

import { MESSAGES } from '../../../shared/messages';
import { ROUTES, routeKey } from '../../../shared/routes';
import type { StripeWebhookReply } from '../../../shared/routes/billing';
import {
  UnreadableWebhookEventError,
  WebhookSignatureInvalidError,
} from '../../domain/billing/billing-errors';
import { ConflictError } from '../../domain/core/errors';
import { METRIC } from '../../domain/core/metrics';
import { type ApiEvent, type ApiHandler, type ApiResult, jsonResult } from '../../http/api-event';
import { bodyTextOf, errorReply, originVerified, type RouteContext } from '../../http/middlewares';
import { byRouteKey } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';

/**
 * Largest body accepted. Above the SPA's limit: an event carries a whole Stripe object (an
 * invoice with its lines), and a body cut short could never verify anyway.
 */
export const MAX_WEBHOOK_BODY_BYTES = 512 * 1024;

/**
 * POST /api/stripe-webhook: the signature is checked on the raw body before anything (400), then the
 * event applied once; 409 while a concurrent delivery applies it, so Stripe retries. Its own pipeline,
 * as the body must reach the check untouched.
 */
const create = (deps: AppDependencies): ApiHandler => {
  const route = ROUTES.stripeWebhook;
  const billing = billingContextOf(deps);
  const pipeline = middy<ApiEvent, ApiResult, Error, RouteContext>()
    .use(originVerified(deps.originSecret))
    .use(errorReply(deps.logger, deps.metrics, route))
    .handler(async (event) => {
      // The body exactly as Stripe sent it: the signature covers the bytes.
      const rawBody = bodyTextOf(event, MAX_WEBHOOK_BODY_BYTES);
      const { paymentEvents, payments } = await billing();
      let verified: ReturnType<typeof payments.constructWebhookEvent>;
      try {
        verified = payments.constructWebhookEvent(rawBody, event.headers?.['stripe-signature']);
      } catch (error) {
        if (error instanceof UnreadableWebhookEventError) {
          // Signed by Stripe but unreadable: acknowledged without effect, or Stripe retries it for
          // days. The log line (one stable message) is what counts them.
          deps.logger.warn('Webhook Stripe illisible ignoré', {
            errorName: error.name,
            reason: error.message,
          });
          const ignored: StripeWebhookReply = { received: true, outcome: 'ignored' };
          return jsonResult(200, ignored);
        }
        if (error instanceof WebhookSignatureInvalidError) {
          deps.logger.warn('Webhook Stripe refusé', { errorName: error.name, reason: error.message });
          deps.metrics.count(METRIC.stripeWebhookRejected);
        }
        throw error;
      }
      const outcome = await paymentEvents.handleWebhookEvent(verified);
      if (outcome === 'busy') {
        deps.logger.info('Webhook Stripe différé', { eventId: verified.id, eventType: verified.type });
        // A conflict, so that Stripe delivers it again later (its status comes from the one table).
        throw new ConflictError(MESSAGES.subscription.webhookBusy);
      }
      if (outcome === 'applied') deps.metrics.count(METRIC.stripeEventApplied);
      const reply: StripeWebhookReply = { received: true, outcome };
      return jsonResult(200, reply);
    });
  return byRouteKey(new Map([[routeKey(route), pipeline as ApiHandler]]));
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createStripeWebhookHandler = declaredFunction('stripe-webhook', create);

export const handler = lambdaEntry('stripe-webhook', createStripeWebhookHandler);
