import type { IncomingMessage, ServerResponse } from 'node:http';

import Stripe from 'stripe';

import { createPortalSession } from './billing-portal';
import { createCheckoutSession, retrieveCheckoutSession } from './checkout-sessions';
import { FormEncodingError, type FormObject, parseStripeForm } from './form';
import { readBody, sendJson } from './http';
import { stripeId } from './objects';
import { createCoupon, createPromotionCode, listPromotionCodes } from './promotion-codes';
import type { StandInState } from './state';
import { cancelSubscription, retrieveSubscription, updateSubscription } from './subscriptions';
import { invalidParam, StripeApiError, unauthorized } from './validation';

/** Stripe's limits on an idempotency key: its length, and how long its first result is kept. */
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const IDEMPOTENCY_KEPT_SECONDS = 24 * 3600;

/**
 * The Stripe API under /v1/: the key checked, idempotent POSTs replayed as Stripe replays them
 * (docs "Idempotent requests": the first status and body kept 24 hours once the endpoint began,
 * 500s included; the same key with other parameters or on another endpoint refused), the
 * form-encoded request parsed and routed to its resource, errors in Stripe's shape.
 */
export async function handleApi(
  state: StandInState,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  method: string,
): Promise<void> {
  const requestId = stripeId('req');
  const headers = { 'request-id': requestId, 'stripe-version': Stripe.API_VERSION };
  const endpoint = `${method} ${url.pathname}`;
  let idempotencyKey: string | null = null;
  let body = '';
  // Set once the endpoint began: a request refused before (key, encoding) keeps no result.
  let began = false;
  const keep = (statusCode: number, json: unknown) => {
    if (idempotencyKey)
      state.idempotency.set(idempotencyKey, {
        endpoint,
        savedAt: state.nowSeconds(),
        body,
        statusCode,
        json,
      });
  };
  try {
    authenticate(state, request.headers.authorization);
    body = await readBody(request);
    idempotencyKey =
      method === 'POST' ? ((request.headers['idempotency-key'] as string | undefined) ?? null) : null;
    if (idempotencyKey) {
      if (idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
        throw invalidParam(
          'Idempotency-Key',
          `Invalid Idempotency-Key: keys must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long.`,
        );
      }
      const earlier = state.idempotency.get(idempotencyKey);
      if (earlier && earlier.savedAt + IDEMPOTENCY_KEPT_SECONDS <= state.nowSeconds())
        state.idempotency.delete(idempotencyKey);
      else if (earlier) {
        if (earlier.endpoint !== endpoint) {
          throw new StripeApiError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${earlier.endpoint}' vs '${endpoint}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          });
        }
        if (earlier.body !== body) {
          throw new StripeApiError(400, {
            type: 'idempotency_error',
            message:
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          });
        }
        return sendJson(response, earlier.statusCode, earlier.json, {
          ...headers,
          'idempotent-replayed': 'true',
        });
      }
    }
    const form = parseStripeForm(method === 'POST' ? body : url.search.slice(1));
    began = true;
    const json = route(state, method, url.pathname, form);
    keep(200, json);
    sendJson(response, 200, json, headers);
  } catch (error) {
    const refusal =
      error instanceof StripeApiError
        ? error
        : error instanceof FormEncodingError
          ? invalidParam(error.param, `Invalid parameter: ${error.param}`)
          : new StripeApiError(500, {
              type: 'api_error',
              message: 'An unknown error occurred in the stand-in.',
            });
    const json = { error: { ...refusal.body, request_log_url: `${state.baseUrl}/_stand-in#${requestId}` } };
    if (began) keep(refusal.statusCode, json);
    sendJson(response, refusal.statusCode, json, headers);
  }
}

function authenticate(state: StandInState, authorization: string | undefined) {
  const key = authorization?.startsWith('Bearer ')
    ? authorization.slice('Bearer '.length).trim()
    : authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')[0]
      : undefined;
  if (!key) {
    throw unauthorized(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  const accepted = state.options.apiKey ? key === state.options.apiKey : key.startsWith('sk_test_');
  if (!accepted) throw unauthorized(`Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`);
}

/** The API calls the product makes, and only those. */
function route(state: StandInState, method: string, path: string, form: FormObject): unknown {
  const match = (pattern: RegExp) => pattern.exec(path)?.[1];
  if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(state, form);
  if (method === 'POST' && path === '/v1/coupons') return createCoupon(state, form);
  if (method === 'GET' && path === '/v1/promotion_codes') return listPromotionCodes(state, form);
  if (method === 'POST' && path === '/v1/promotion_codes') return createPromotionCode(state, form);
  if (method === 'POST' && path === '/v1/billing_portal/sessions') return createPortalSession(state, form);
  const sessionId = match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
  if (method === 'GET' && sessionId)
    return retrieveCheckoutSession(state, decodeURIComponent(sessionId), form);
  const subscriptionId = match(/^\/v1\/subscriptions\/([^/]+)$/);
  if (method === 'GET' && subscriptionId)
    return retrieveSubscription(state, decodeURIComponent(subscriptionId), form);
  if (method === 'POST' && subscriptionId)
    return updateSubscription(state, decodeURIComponent(subscriptionId), form);
  if (method === 'DELETE' && subscriptionId) {
    return cancelSubscription(state, decodeURIComponent(subscriptionId), form);
  }
  throw new StripeApiError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). The local Stripe stand-in serves only the calls the product makes.`,
  });
}
