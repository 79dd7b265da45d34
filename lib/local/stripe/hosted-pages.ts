import type { IncomingMessage, ServerResponse } from 'node:http';

import { checkoutSessionView, payCheckoutSession, successUrlOf } from './checkout-sessions';
import { PageError, readBody, redirect, sendHtml, sendJson, wantsHtml } from './http';
import { type CheckoutSession, checkoutAmounts, type Subscription, subscriptionJson } from './objects';
import { checkoutPage, indexPage, messagePage, portalPage, type SubscriptionRow } from './pages';
import type { StandInState } from './state';
import { actOnSubscription, type SubscriptionAction, setCancelAtPeriodEnd } from './subscriptions';
import { StripeApiError } from './validation';
import type { WebhookDelivery } from './webhooks';

const DELIVERY_LABELS: Record<WebhookDelivery['status'], string> = {
  recorded: 'enregistré',
  pending: 'en cours',
  delivered: 'livré',
  failed: 'échec',
};

/**
 * Everything but the API: the hosted-checkout page, the customer portal, the testers' index page
 * and the endpoints that drive a subscription's later life. A refusal is a French page for a
 * browser, Stripe's error shape for a script.
 */
export async function handlePage(
  state: StandInState,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  method: string,
): Promise<void> {
  try {
    const segments = url.pathname.split('/').filter(Boolean);
    if (
      method === 'GET' &&
      (segments.length === 0 || (segments.length === 1 && segments[0] === '_stand-in'))
    ) {
      return sendHtml(response, 200, indexHtml(state));
    }
    if (segments[0] === 'checkout' && segments.length === 2) {
      return await checkoutRoute(state, request, response, method, segments[1] as string);
    }
    if (segments[0] === 'portal' && segments.length >= 2) {
      return await portalRoute(state, request, response, method, segments);
    }
    if (segments[0] === '_stand-in' && segments[1] === 'events' && method === 'GET') {
      return sendJson(response, 200, state.webhooks.deliveries);
    }
    if (
      segments[0] === '_stand-in' &&
      segments[1] === 'subscriptions' &&
      segments.length === 4 &&
      method === 'POST'
    ) {
      await readBody(request);
      await actOnSubscription(state, segments[2] as string, segments[3] as SubscriptionAction);
      if (wantsHtml(request)) return redirect(response, '/_stand-in');
      return sendJson(response, 200, subscriptionJson(state.subscriptions.get(segments[2] as string)!));
    }
    sendHtml(response, 404, messagePage('Page introuvable', "Cette page n'existe pas."));
  } catch (error) {
    if (error instanceof PageError || error instanceof StripeApiError) {
      const message = error.message;
      const statusCode = error.statusCode;
      if (wantsHtml(request)) {
        return sendHtml(response, statusCode, messagePage('Opération impossible', message));
      }
      return sendJson(response, statusCode, { error: { type: 'invalid_request_error', message } });
    }
    throw error;
  }
}

async function checkoutRoute(
  state: StandInState,
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  id: string,
) {
  const session = state.checkoutSessions.get(id);
  if (!session) {
    return sendHtml(
      response,
      404,
      messagePage('Paiement introuvable', "Cette session de paiement n'existe pas."),
    );
  }
  if (method === 'POST') {
    await readBody(request);
    try {
      return redirect(response, await payCheckoutSession(state, id));
    } catch (error) {
      if (error instanceof PageError)
        return sendHtml(response, error.statusCode, checkoutHtml(state, session, error.message));
      throw error;
    }
  }
  if (method !== 'GET')
    return sendHtml(response, 405, messagePage('Méthode non autorisée', 'GET ou POST uniquement.'));
  checkoutSessionView(state, session);
  if (session.status === 'complete') {
    return sendHtml(
      response,
      200,
      messagePage('Paiement déjà effectué', 'Ce paiement a déjà été effectué.', {
        href: successUrlOf(session),
        label: 'Revenir au site',
      }),
    );
  }
  if (session.status === 'expired') {
    return sendHtml(response, 410, messagePage('Session expirée', 'Cette session de paiement a expiré.'));
  }
  sendHtml(response, 200, checkoutHtml(state, session));
}

function checkoutHtml(state: StandInState, session: CheckoutSession, error?: string): string {
  const promotion = state.promotionOf(session);
  const amounts = checkoutAmounts(session, state.couponOf(promotion));
  return checkoutPage({
    sessionId: session.id,
    email: session.customerEmail,
    lines: session.lineItems.map((item) => ({
      name: item.name,
      amountCents: item.unitAmount * item.quantity,
      recurring: item.interval !== null,
    })),
    promotionCode: promotion?.code ?? null,
    discountCents: amounts.discount,
    totalCents: amounts.total,
    recurringCents: amounts.recurring,
    cancelUrl: session.cancelUrl,
    ...(error ? { error } : {}),
  });
}

async function portalRoute(
  state: StandInState,
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  segments: string[],
) {
  const portal = state.portals.get(segments[1] as string);
  if (!portal)
    return sendHtml(response, 404, messagePage('Portail introuvable', "Ce lien de portail n'existe pas."));
  if (method === 'POST' && segments[2] === 'cancel' && segments[3]) {
    await readBody(request);
    const subscription = state.subscriptions.get(segments[3]);
    if (!subscription || subscription.customerId !== portal.customerId) {
      throw new PageError(404, "Cet abonnement n'existe pas.");
    }
    // Stripe's portal cancels at the end of the paid period (the mode the deployment configures).
    if (subscription.status !== 'canceled') await setCancelAtPeriodEnd(state, subscription, true);
    return redirect(response, `/portal/${portal.id}`);
  }
  if (method !== 'GET' || segments.length !== 2) {
    return sendHtml(response, 404, messagePage('Page introuvable', "Cette page n'existe pas."));
  }
  const customer = state.customers.get(portal.customerId);
  sendHtml(
    response,
    200,
    portalPage({
      portalId: portal.id,
      email: customer?.email ?? null,
      subscriptions: [...state.subscriptions.values()]
        .filter((subscription) => subscription.customerId === portal.customerId)
        .map((subscription) => rowOf(state, subscription)),
      returnUrl: portal.returnUrl,
    }),
  );
}

function rowOf(state: StandInState, subscription: Subscription): SubscriptionRow {
  return {
    id: subscription.id,
    email: state.customers.get(subscription.customerId)?.email ?? null,
    status: subscription.status,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
  };
}

function indexHtml(state: StandInState): string {
  return indexPage({
    subscriptions: [...state.subscriptions.values()]
      .reverse()
      .map((subscription) => rowOf(state, subscription)),
    promotionCodes: [...state.promotionCodes.values()].reverse().map((promotion) => ({
      code: promotion.code,
      timesRedeemed: promotion.timesRedeemed,
      maxRedemptions: promotion.maxRedemptions,
    })),
    deliveries: state.webhooks.deliveries
      .slice(-50)
      .reverse()
      .map((delivery) => ({
        eventId: delivery.event.id,
        type: delivery.event.type,
        objectId: delivery.event.data.object.id,
        outcome:
          delivery.status === 'recorded'
            ? 'enregistré'
            : `${DELIVERY_LABELS[delivery.status]} (${delivery.attempts} essai(s), HTTP ${delivery.lastStatusCode ?? '—'})`,
      })),
    webhookUrl: state.options.webhookUrl ?? null,
  });
}
