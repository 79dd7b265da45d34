import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import Stripe from 'stripe';

import { freePort } from '../free-port';
import { FormEncodingError, type FormObject, parseStripeForm } from './form';
import {
  type CheckoutSession,
  type Coupon,
  type Customer,
  checkoutAmounts,
  checkoutSessionJson,
  couponJson,
  type Invoice,
  invoiceJson,
  isRedeemable,
  type LineItem,
  oneMonthAfter,
  type PortalSession,
  type PromotionCode,
  portalSessionJson,
  promotionCodeJson,
  type Subscription,
  stripeId,
  subscriptionJson,
} from './objects';
import { checkoutPage, indexPage, messagePage, PAGE_CSP, portalPage, type SubscriptionRow } from './pages';
import {
  badRequest,
  invalidParam,
  missingParam,
  noSuch,
  Params,
  StripeApiError,
  unauthorized,
} from './validation';

/**
 * The local Stripe stand-in (ARCHITECTURE.md §3): the Stripe API calls the product makes, with
 * Stripe's request encoding, validation and error shapes; a hosted-checkout page where paying
 * creates the customer and the subscription and sends the signed webhook events; a customer
 * portal; and, for testers, an index page and endpoints that drive a subscription's later life
 * (renewal, failed payment, unpaid, deletion). State lives in memory; the SDK reaches it with its
 * `host`, `port` and `protocol` options.
 */

export interface StripeStandInOptions {
  /** Default: a free port. The stand-in listens on 127.0.0.1 only. */
  readonly port?: number;
  /** Where the signed events go; without it they are only recorded in `deliveries`. */
  readonly webhookUrl?: string;
  /** The endpoint's signing secret, `whsec_...`, that the webhook handler verifies with. */
  readonly webhookSecret: string;
  /** The stand-in's address as a browser reaches it (hosted pages). Default: http://127.0.0.1:<port>. */
  readonly publicBaseUrl?: string;
  /** When set, the only API key accepted; otherwise any `sk_test_...` key. */
  readonly apiKey?: string;
  readonly now?: () => Date;
  /** Announces each event sent (the local runtime prints it on the console). */
  readonly log?: (message: string) => void;
}

/** A Stripe event as sent to the webhook. */
export interface StandInEvent {
  readonly id: string;
  readonly object: 'event';
  readonly api_version: string;
  readonly created: number;
  readonly type: string;
  readonly livemode: false;
  readonly pending_webhooks: number;
  readonly request: { id: null; idempotency_key: null };
  readonly data: {
    object: { id: string } & Record<string, unknown>;
    previous_attributes?: Record<string, unknown>;
  };
}

export interface WebhookDelivery {
  readonly event: StandInEvent;
  /** The exact body sent (and signed). */
  readonly payload: string;
  /** The Stripe-Signature header of the first attempt. */
  readonly signature: string;
  status: 'recorded' | 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
}

export type SubscriptionAction = 'renew' | 'fail-payment' | 'mark-unpaid' | 'delete';

export interface StripeStandIn {
  /** The base URL of the hosted pages and of the testers' index (`/_stand-in`). */
  readonly url: string;
  readonly port: number;
  /** The SDK options that point it at the stand-in. */
  readonly connection: { readonly host: string; readonly port: number; readonly protocol: 'http' };
  /** Every event sent, in order. */
  readonly deliveries: readonly WebhookDelivery[];
  /** What paying on the hosted-checkout page does; resolves to the success URL once the events are delivered. */
  pay(checkoutSessionId: string): Promise<string>;
  /** The later life of a subscription, as the index page's buttons drive it. */
  act(subscriptionId: string, action: SubscriptionAction): Promise<void>;
  /** Resolves when every event sent so far has been delivered (or given up on). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Stripe's webhook signature: `t=<unix time>,v1=<HMAC-SHA256 of "t.payload" under the secret>`. */
export function signWebhookPayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** A refusal on a hosted page, shown to the buyer in French. */
class PageError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 1024 * 1024;
const DELIVERY_LABELS: Record<WebhookDelivery['status'], string> = {
  recorded: 'enregistré',
  pending: 'en cours',
  delivered: 'livré',
  failed: 'échec',
};
const DELIVERY_ATTEMPTS = 3;
const SESSION_LIFETIME_SECONDS = 24 * 3600;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Stripe's rule for a promotion code: letters and digits only. */
const PROMO_CODE_PATTERN = /^[A-Za-z0-9]{1,500}$/;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(badRequest('Request body too large.'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

class StandIn {
  private readonly customers = new Map<string, Customer>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly invoices = new Map<string, Invoice>();
  private readonly sessions = new Map<string, CheckoutSession>();
  private readonly coupons = new Map<string, Coupon>();
  private readonly promotionCodes = new Map<string, PromotionCode>();
  private readonly portals = new Map<string, PortalSession>();
  private readonly idempotency = new Map<string, { body: string; statusCode: number; json: unknown }>();
  readonly deliveries: WebhookDelivery[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: StripeStandInOptions,
    readonly baseUrl: string,
  ) {}

  private nowSeconds(): number {
    return Math.floor((this.options.now?.() ?? new Date()).getTime() / 1000);
  }

  // ---------------------------------------------------------------- HTTP

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    if (url.pathname.startsWith('/v1/')) return this.api(request, response, url, method);
    try {
      const segments = url.pathname.split('/').filter(Boolean);
      if (
        method === 'GET' &&
        (segments.length === 0 || (segments.length === 1 && segments[0] === '_stand-in'))
      ) {
        return this.sendHtml(response, 200, this.indexHtml());
      }
      if (segments[0] === 'checkout' && segments.length === 2) {
        return await this.checkoutRoute(request, response, method, segments[1] as string);
      }
      if (segments[0] === 'portal' && segments.length >= 2) {
        return await this.portalRoute(request, response, method, segments);
      }
      if (segments[0] === '_stand-in' && segments[1] === 'events' && method === 'GET') {
        return this.sendJson(response, 200, this.deliveries);
      }
      if (
        segments[0] === '_stand-in' &&
        segments[1] === 'subscriptions' &&
        segments.length === 4 &&
        method === 'POST'
      ) {
        await readBody(request);
        await this.act(segments[2] as string, segments[3] as SubscriptionAction);
        if ((request.headers.accept ?? '').includes('text/html'))
          return this.redirect(response, '/_stand-in');
        return this.sendJson(response, 200, subscriptionJson(this.subscriptions.get(segments[2] as string)!));
      }
      this.sendHtml(response, 404, messagePage('Page introuvable', "Cette page n'existe pas."));
    } catch (error) {
      if (error instanceof PageError || error instanceof StripeApiError) {
        const message = error.message;
        const statusCode = error.statusCode;
        if ((request.headers.accept ?? '').includes('text/html')) {
          return this.sendHtml(response, statusCode, messagePage('Opération impossible', message));
        }
        return this.sendJson(response, statusCode, { error: { type: 'invalid_request_error', message } });
      }
      throw error;
    }
  }

  private sendJson(
    response: ServerResponse,
    statusCode: number,
    json: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(statusCode, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    });
    response.end(JSON.stringify(json));
  }

  private sendHtml(response: ServerResponse, statusCode: number, body: string) {
    response.writeHead(statusCode, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    response.end(body);
  }

  private redirect(response: ServerResponse, location: string) {
    response.writeHead(303, { location, 'cache-control': 'no-store' });
    response.end();
  }

  // ---------------------------------------------------------------- API

  private async api(request: IncomingMessage, response: ServerResponse, url: URL, method: string) {
    const requestId = stripeId('req');
    const headers = { 'request-id': requestId, 'stripe-version': Stripe.API_VERSION };
    let idempotencyKey: string | null = null;
    let body = '';
    try {
      this.authenticate(request.headers.authorization);
      body = await readBody(request);
      idempotencyKey =
        method === 'POST' ? ((request.headers['idempotency-key'] as string | undefined) ?? null) : null;
      if (idempotencyKey) {
        const earlier = this.idempotency.get(idempotencyKey);
        if (earlier) {
          if (earlier.body !== body) {
            throw new StripeApiError(400, {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            });
          }
          return this.sendJson(response, earlier.statusCode, earlier.json, {
            ...headers,
            'idempotent-replayed': 'true',
          });
        }
      }
      const form = parseStripeForm(method === 'POST' ? body : url.search.slice(1));
      const json = this.route(method, url.pathname, form);
      if (idempotencyKey) this.idempotency.set(idempotencyKey, { body, statusCode: 200, json });
      this.sendJson(response, 200, json, headers);
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
      const json = { error: { ...refusal.body, request_log_url: `${this.baseUrl}/_stand-in#${requestId}` } };
      if (idempotencyKey && refusal.statusCode < 500) {
        this.idempotency.set(idempotencyKey, { body, statusCode: refusal.statusCode, json });
      }
      this.sendJson(response, refusal.statusCode, json, headers);
    }
  }

  private authenticate(authorization: string | undefined) {
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
    const accepted = this.options.apiKey ? key === this.options.apiKey : key.startsWith('sk_test_');
    if (!accepted) throw unauthorized(`Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`);
  }

  /** The API calls the product makes, and only those. */
  private route(method: string, path: string, form: FormObject): unknown {
    const match = (pattern: RegExp) => pattern.exec(path)?.[1];
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createCheckoutSession(form);
    if (method === 'POST' && path === '/v1/coupons') return this.createCoupon(form);
    if (method === 'GET' && path === '/v1/promotion_codes') return this.listPromotionCodes(form);
    if (method === 'POST' && path === '/v1/promotion_codes') return this.createPromotionCode(form);
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return this.createPortalSession(form);
    const sessionId = match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (method === 'GET' && sessionId)
      return this.retrieveCheckoutSession(decodeURIComponent(sessionId), form);
    const subscriptionId = match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (method === 'GET' && subscriptionId)
      return this.retrieveSubscription(decodeURIComponent(subscriptionId), form);
    if (method === 'DELETE' && subscriptionId) {
      return this.cancelSubscriptionByApi(decodeURIComponent(subscriptionId), form);
    }
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). The local Stripe stand-in serves only the calls the product makes.`,
    });
  }

  private createCheckoutSession(form: FormObject) {
    const params = new Params(form, '', [
      'mode',
      'locale',
      'customer_email',
      'line_items',
      'discounts',
      'allow_promotion_codes',
      'payment_method_collection',
      'success_url',
      'cancel_url',
      'metadata',
      'subscription_data',
      'client_reference_id',
      'expand',
    ]);
    params.expand([]);
    const mode = params.oneOf('mode', ['payment', 'setup', 'subscription'] as const);
    if (!mode) throw missingParam('mode');
    if (mode !== 'subscription') {
      throw invalidParam(
        'mode',
        'The local Stripe stand-in supports `mode=subscription` only, the mode the product uses.',
      );
    }
    const successUrl = params.url('success_url', true) as string;
    const cancelUrl = params.url('cancel_url', false) ?? null;
    const customerEmail = params.string('customer_email') ?? null;
    if (customerEmail !== null && !EMAIL_PATTERN.test(customerEmail)) {
      throw invalidParam('customer_email', `Invalid email address: ${customerEmail}`, 'email_invalid');
    }
    const paymentMethodCollection =
      params.oneOf('payment_method_collection', ['always', 'if_required'] as const) ?? 'always';
    const lineItems = this.lineItemsOf(params);
    const allowPromotionCodes = params.boolean('allow_promotion_codes');
    const discounts = params.array('discounts');
    if (discounts.length > 0 && allowPromotionCodes) {
      throw badRequest(
        'You may only specify one of these parameters: allow_promotion_codes, discounts.',
        'discounts',
      );
    }
    if (discounts.length > 1)
      throw invalidParam('discounts', 'The stand-in accepts one discount per checkout.');
    let promotionCodeId: string | null = null;
    if (discounts[0] !== undefined) {
      const discount = Params.of(discounts[0], 'discounts[0]', ['promotion_code', 'coupon']);
      if (discount.has('coupon'))
        throw noSuch('coupon', discount.string('coupon') as string, 'discounts[0][coupon]');
      const id = discount.requiredString('promotion_code');
      const promotion = this.promotionCodes.get(id);
      if (!promotion) throw noSuch('promotion code', id, 'discounts[0][promotion_code]');
      if (!isRedeemable(promotion, this.coupons.get(promotion.couponId), this.nowSeconds())) {
        throw badRequest(
          `This promotion code cannot be redeemed: it is inactive, expired or has reached its maximum number of redemptions (${promotion.code}).`,
          'discounts[0][promotion_code]',
          'coupon_expired',
        );
      }
      promotionCodeId = id;
    }
    const subscriptionData = Params.of(params.raw('subscription_data'), 'subscription_data', [
      'metadata',
      'description',
    ]);
    const created = this.nowSeconds();
    const session: CheckoutSession = {
      id: stripeId('cs_test', 58),
      created,
      expiresAt: created + SESSION_LIFETIME_SECONDS,
      mode,
      locale: params.string('locale') ?? null,
      customerEmail,
      lineItems,
      promotionCodeId,
      successUrl,
      cancelUrl,
      metadata: params.metadata('metadata'),
      subscriptionMetadata: subscriptionData.metadata('metadata'),
      paymentMethodCollection,
      clientReferenceId: params.string('client_reference_id') ?? null,
      status: 'open',
      paymentStatus: 'unpaid',
      customerId: null,
      subscriptionId: null,
      invoiceId: null,
    };
    this.sessions.set(session.id, session);
    return this.sessionJson(session);
  }

  private lineItemsOf(params: Params): LineItem[] {
    const elements = params.array('line_items');
    if (elements.length === 0) throw missingParam('line_items');
    const items = elements.map((element, index) => {
      const prefix = `line_items[${index}]`;
      const item = Params.of(element, prefix, ['price', 'price_data', 'quantity']);
      if (item.has('price')) throw noSuch('price', item.string('price') as string, `${prefix}[price]`);
      if (!item.has('price_data')) throw missingParam(`${prefix}[price]`);
      const price = Params.of(item.raw('price_data'), `${prefix}[price_data]`, [
        'currency',
        'unit_amount',
        'product',
        'product_data',
        'recurring',
      ]);
      const currency = price.requiredString('currency').toLowerCase();
      if (!/^[a-z]{3}$/.test(currency))
        throw invalidParam(price.path('currency'), `Invalid currency: ${currency}`);
      const unitAmount = price.integer('unit_amount', { min: 0, max: 99_999_999 });
      if (unitAmount === undefined) throw missingParam(price.path('unit_amount'));
      if (price.has('product'))
        throw noSuch('product', price.string('product') as string, price.path('product'));
      if (!price.has('product_data')) throw missingParam(price.path('product_data'));
      const product = Params.of(price.raw('product_data'), price.path('product_data'), [
        'name',
        'description',
        'metadata',
      ]);
      const name = product.requiredString('name');
      let interval: string | null = null;
      if (price.has('recurring')) {
        const recurring = Params.of(price.raw('recurring'), price.path('recurring'), [
          'interval',
          'interval_count',
        ]);
        interval = recurring.oneOf('interval', ['day', 'week', 'month', 'year'] as const) ?? null;
        if (!interval) throw missingParam(recurring.path('interval'));
        if ((recurring.integer('interval_count', { min: 1, max: 12 }) ?? 1) !== 1) {
          throw invalidParam(
            recurring.path('interval_count'),
            'The stand-in bills every single interval only.',
          );
        }
      }
      const quantity = item.integer('quantity', { min: 1, max: 999_999 });
      if (quantity === undefined) {
        throw badRequest(
          `Quantity is required. Add \`quantity\` to \`${prefix}\``,
          `${prefix}[quantity]`,
          'parameter_missing',
        );
      }
      return {
        name,
        currency,
        unitAmount,
        quantity,
        interval,
        priceId: stripeId('price'),
        productId: stripeId('prod'),
      } satisfies LineItem;
    });
    const recurring = items.filter((item) => item.interval !== null);
    if (recurring.length === 0) {
      throw badRequest(
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      );
    }
    if (recurring.length > 1)
      throw invalidParam('line_items', 'The stand-in supports one recurring price per checkout.');
    if (new Set(items.map((item) => item.currency)).size > 1) {
      throw invalidParam('line_items', 'All prices on a Checkout Session must be in the same currency.');
    }
    return items;
  }

  private retrieveCheckoutSession(id: string, form: FormObject) {
    Params.of(form, '', ['expand']).expand([]);
    const session = this.sessions.get(id);
    if (!session) throw noSuch('checkout.session', id);
    return this.sessionJson(session);
  }

  private sessionJson(session: CheckoutSession) {
    if (session.status === 'open' && session.expiresAt <= this.nowSeconds()) session.status = 'expired';
    const promotion = session.promotionCodeId ? this.promotionCodes.get(session.promotionCodeId) : undefined;
    return checkoutSessionJson(session, {
      url: `${this.baseUrl}/checkout/${session.id}`,
      coupon: promotion ? this.coupons.get(promotion.couponId) : undefined,
      customerEmail: session.customerId ? (this.customers.get(session.customerId)?.email ?? null) : null,
    });
  }

  private createCoupon(form: FormObject) {
    const params = new Params(form, '', [
      'id',
      'percent_off',
      'amount_off',
      'currency',
      'duration',
      'duration_in_months',
      'name',
      'max_redemptions',
      'metadata',
      'expand',
    ]);
    params.expand([]);
    const percentOff = params.number('percent_off', { min: 0, max: 100 }) ?? null;
    const amountOff = params.integer('amount_off', { min: 1 }) ?? null;
    if ((percentOff === null) === (amountOff === null)) {
      throw badRequest(
        'Must provide exactly one of these parameters: amount_off, percent_off.',
        'percent_off',
      );
    }
    const currency = params.string('currency')?.toLowerCase() ?? null;
    if (amountOff !== null && !currency) throw missingParam('currency');
    const duration = params.oneOf('duration', ['once', 'repeating', 'forever'] as const) ?? 'once';
    const durationInMonths = params.integer('duration_in_months', { min: 1, max: 36 }) ?? null;
    if (duration === 'repeating' && durationInMonths === null) throw missingParam('duration_in_months');
    const id = params.string('id') ?? stripeId('', 8).slice(1);
    if (this.coupons.has(id)) throw badRequest('Coupon already exists.', 'id', 'resource_already_exists');
    const coupon: Coupon = {
      id,
      created: this.nowSeconds(),
      percentOff,
      amountOff,
      currency,
      duration,
      durationInMonths,
      name: params.string('name') ?? null,
      maxRedemptions: params.integer('max_redemptions', { min: 1 }) ?? null,
      metadata: params.metadata('metadata'),
      timesRedeemed: 0,
    };
    this.coupons.set(coupon.id, coupon);
    return couponJson(coupon);
  }

  private createPromotionCode(form: FormObject) {
    const params = new Params(form, '', [
      'promotion',
      'code',
      'max_redemptions',
      'metadata',
      'active',
      'expires_at',
      'expand',
    ]);
    const expand = params.expand(['promotion.coupon']);
    if (!params.has('promotion')) throw missingParam('promotion');
    const promotion = Params.of(params.raw('promotion'), 'promotion', ['type', 'coupon']);
    if (!promotion.oneOf('type', ['coupon'] as const)) throw missingParam('promotion[type]');
    const couponId = promotion.requiredString('coupon');
    const coupon = this.coupons.get(couponId);
    if (!coupon) throw noSuch('coupon', couponId, 'promotion[coupon]');
    const code = params.string('code') ?? stripeId('', 8).slice(1).toUpperCase();
    if (!PROMO_CODE_PATTERN.test(code)) throw invalidParam('code', `Invalid code: ${code}`);
    const taken = [...this.promotionCodes.values()].some(
      (existing) => existing.active && existing.code.toLowerCase() === code.toLowerCase(),
    );
    if (taken) {
      throw badRequest(
        `An active promotion code with \`code: ${code}\` already exists.`,
        'code',
        'resource_already_exists',
      );
    }
    const now = this.nowSeconds();
    const expiresAt = params.integer('expires_at', { min: now + 1 }) ?? null;
    const created: PromotionCode = {
      id: stripeId('promo', 24),
      created: now,
      code,
      couponId,
      maxRedemptions: params.integer('max_redemptions', { min: 1 }) ?? null,
      expiresAt,
      metadata: params.metadata('metadata'),
      active: params.boolean('active') ?? true,
      timesRedeemed: 0,
    };
    this.promotionCodes.set(created.id, created);
    return promotionCodeJson(created, coupon, expand.has('promotion.coupon'));
  }

  private listPromotionCodes(form: FormObject) {
    const params = new Params(form, '', ['code', 'active', 'coupon', 'limit', 'expand']);
    const expand = params.expand(['data.promotion.coupon']);
    const code = params.string('code')?.toLowerCase();
    const active = params.boolean('active');
    const couponId = params.string('coupon');
    const limit = params.integer('limit', { min: 1, max: 100 }) ?? 10;
    const matching = [...this.promotionCodes.values()]
      .filter(
        (promotion) =>
          (code === undefined || promotion.code.toLowerCase() === code) &&
          (active === undefined || promotion.active === active) &&
          (couponId === undefined || promotion.couponId === couponId),
      )
      .reverse();
    return {
      object: 'list',
      data: matching
        .slice(0, limit)
        .map((promotion) =>
          promotionCodeJson(
            promotion,
            this.coupons.get(promotion.couponId),
            expand.has('data.promotion.coupon'),
          ),
        ),
      has_more: matching.length > limit,
      url: '/v1/promotion_codes',
    };
  }

  private retrieveSubscription(id: string, form: FormObject) {
    Params.of(form, '', ['expand']).expand([]);
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw noSuch('subscription', id);
    return subscriptionJson(subscription);
  }

  private cancelSubscriptionByApi(id: string, form: FormObject) {
    const params = Params.of(form, '', ['invoice_now', 'prorate', 'cancellation_details', 'expand']);
    params.expand([]);
    params.boolean('invoice_now');
    params.boolean('prorate');
    Params.of(params.raw('cancellation_details'), 'cancellation_details', ['comment', 'feedback']);
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw noSuch('subscription', id);
    if (subscription.status === 'canceled') {
      throw badRequest(
        `This subscription has already been canceled (${id}).`,
        undefined,
        'subscription_canceled',
      );
    }
    // As at Stripe, the webhook follows the response rather than holding it up.
    void this.endSubscription(subscription);
    return subscriptionJson(subscription);
  }

  private createPortalSession(form: FormObject) {
    const params = new Params(form, '', ['customer', 'return_url', 'locale', 'expand']);
    params.expand([]);
    const customerId = params.requiredString('customer');
    if (!this.customers.has(customerId)) throw noSuch('customer', customerId, 'customer');
    const portal: PortalSession = {
      id: stripeId('bps', 24),
      created: this.nowSeconds(),
      customerId,
      returnUrl: params.url('return_url', false) ?? null,
      locale: params.string('locale') ?? null,
    };
    this.portals.set(portal.id, portal);
    return portalSessionJson(portal, `${this.baseUrl}/portal/${portal.id}`);
  }

  // ---------------------------------------------------------------- hosted pages

  private async checkoutRoute(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    id: string,
  ) {
    const session = this.sessions.get(id);
    if (!session) {
      return this.sendHtml(
        response,
        404,
        messagePage('Paiement introuvable', "Cette session de paiement n'existe pas."),
      );
    }
    if (method === 'POST') {
      await readBody(request);
      try {
        return this.redirect(response, await this.pay(id));
      } catch (error) {
        if (error instanceof PageError)
          return this.sendHtml(response, error.statusCode, this.checkoutHtml(session, error.message));
        throw error;
      }
    }
    if (method !== 'GET')
      return this.sendHtml(response, 405, messagePage('Méthode non autorisée', 'GET ou POST uniquement.'));
    this.sessionJson(session);
    if (session.status === 'complete') {
      return this.sendHtml(
        response,
        200,
        messagePage('Paiement déjà effectué', 'Ce paiement a déjà été effectué.', {
          href: this.successUrlOf(session),
          label: 'Revenir au site',
        }),
      );
    }
    if (session.status === 'expired') {
      return this.sendHtml(
        response,
        410,
        messagePage('Session expirée', 'Cette session de paiement a expiré.'),
      );
    }
    this.sendHtml(response, 200, this.checkoutHtml(session));
  }

  private checkoutHtml(session: CheckoutSession, error?: string): string {
    const promotion = session.promotionCodeId ? this.promotionCodes.get(session.promotionCodeId) : undefined;
    const amounts = checkoutAmounts(session, promotion ? this.coupons.get(promotion.couponId) : undefined);
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

  private successUrlOf(session: CheckoutSession): string {
    return session.successUrl.replace(/\{CHECKOUT_SESSION_ID\}/g, session.id);
  }

  async pay(checkoutSessionId: string): Promise<string> {
    const session = this.sessions.get(checkoutSessionId);
    if (!session) throw new PageError(404, "Cette session de paiement n'existe pas.");
    this.sessionJson(session);
    if (session.status === 'complete') return this.successUrlOf(session);
    if (session.status === 'expired') throw new PageError(410, 'Cette session de paiement a expiré.');
    const promotion = session.promotionCodeId ? this.promotionCodes.get(session.promotionCodeId) : undefined;
    const coupon = promotion ? this.coupons.get(promotion.couponId) : undefined;
    const now = this.nowSeconds();
    if (promotion && !isRedeemable(promotion, coupon, now)) {
      throw new PageError(
        409,
        "Ce code promo n'est plus valide : il a atteint son nombre maximal d'utilisations ou a expiré.",
      );
    }
    const recurringItem = session.lineItems.find((item) => item.interval !== null) as LineItem;
    const customer: Customer = { id: stripeId('cus'), created: now, email: session.customerEmail };
    const subscription: Subscription = {
      id: stripeId('sub', 24),
      itemId: stripeId('si'),
      created: now,
      customerId: customer.id,
      item: recurringItem,
      metadata: session.subscriptionMetadata,
      discountCouponId: coupon?.id ?? null,
      status: 'active',
      currentPeriodStart: now,
      currentPeriodEnd: oneMonthAfter(now),
      canceledAt: null,
      endedAt: null,
      latestInvoiceId: null,
    };
    const amounts = checkoutAmounts(session, coupon);
    const invoice = this.newInvoice(
      subscription,
      customer,
      'subscription_create',
      amounts.subtotal,
      amounts.total,
    );
    invoice.status = 'paid';
    subscription.latestInvoiceId = invoice.id;
    if (promotion && coupon) {
      promotion.timesRedeemed += 1;
      coupon.timesRedeemed += 1;
    }
    this.customers.set(customer.id, customer);
    this.subscriptions.set(subscription.id, subscription);
    Object.assign(session, {
      status: 'complete',
      paymentStatus: amounts.total === 0 ? 'no_payment_required' : 'paid',
      customerId: customer.id,
      subscriptionId: subscription.id,
      invoiceId: invoice.id,
    } satisfies Partial<CheckoutSession>);
    // Delivered in order before the buyer is sent back, so the licence exists when the site shows the success page.
    void this.send('checkout.session.completed', this.sessionJson(session));
    await this.send('invoice.paid', invoiceJson(invoice));
    return this.successUrlOf(session);
  }

  private newInvoice(
    subscription: Subscription,
    customer: Customer | undefined,
    billingReason: Invoice['billingReason'],
    subtotal: number,
    total: number,
  ): Invoice {
    const invoice: Invoice = {
      id: stripeId('in', 24),
      created: this.nowSeconds(),
      customerId: subscription.customerId,
      customerEmail: customer?.email ?? null,
      subscriptionId: subscription.id,
      subscriptionMetadata: subscription.metadata,
      billingReason,
      currency: subscription.item.currency,
      subtotal,
      total,
      periodStart: subscription.currentPeriodStart,
      periodEnd:
        billingReason === 'subscription_create'
          ? subscription.currentPeriodStart
          : subscription.currentPeriodEnd,
      status: 'open',
      attemptCount: 1,
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  private async portalRoute(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    segments: string[],
  ) {
    const portal = this.portals.get(segments[1] as string);
    if (!portal)
      return this.sendHtml(
        response,
        404,
        messagePage('Portail introuvable', "Ce lien de portail n'existe pas."),
      );
    if (method === 'POST' && segments[2] === 'cancel' && segments[3]) {
      await readBody(request);
      const subscription = this.subscriptions.get(segments[3]);
      if (!subscription || subscription.customerId !== portal.customerId) {
        throw new PageError(404, "Cet abonnement n'existe pas.");
      }
      if (subscription.status !== 'canceled') await this.endSubscription(subscription);
      return this.redirect(response, `/portal/${portal.id}`);
    }
    if (method !== 'GET' || segments.length !== 2) {
      return this.sendHtml(response, 404, messagePage('Page introuvable', "Cette page n'existe pas."));
    }
    const customer = this.customers.get(portal.customerId);
    this.sendHtml(
      response,
      200,
      portalPage({
        portalId: portal.id,
        email: customer?.email ?? null,
        subscriptions: [...this.subscriptions.values()]
          .filter((subscription) => subscription.customerId === portal.customerId)
          .map((subscription) => this.rowOf(subscription)),
        returnUrl: portal.returnUrl,
      }),
    );
  }

  private rowOf(subscription: Subscription): SubscriptionRow {
    return {
      id: subscription.id,
      email: this.customers.get(subscription.customerId)?.email ?? null,
      status: subscription.status,
      currentPeriodEnd: subscription.currentPeriodEnd,
    };
  }

  private indexHtml(): string {
    return indexPage({
      subscriptions: [...this.subscriptions.values()]
        .reverse()
        .map((subscription) => this.rowOf(subscription)),
      promotionCodes: [...this.promotionCodes.values()].reverse().map((promotion) => ({
        code: promotion.code,
        timesRedeemed: promotion.timesRedeemed,
        maxRedemptions: promotion.maxRedemptions,
      })),
      deliveries: this.deliveries
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
      webhookUrl: this.options.webhookUrl ?? null,
    });
  }

  // ---------------------------------------------------------------- lifecycle

  /** The later life of a subscription, as Stripe would live it. */
  async act(subscriptionId: string, action: SubscriptionAction): Promise<void> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw noSuch('subscription', subscriptionId);
    if (subscription.status === 'canceled') {
      throw badRequest(`This subscription has already been canceled (${subscriptionId}).`);
    }
    const customer = this.customers.get(subscription.customerId);
    const previousStatus = subscription.status;
    const amount = subscription.item.unitAmount * subscription.item.quantity;
    const coupon = subscription.discountCouponId
      ? this.coupons.get(subscription.discountCouponId)
      : undefined;
    const total = coupon?.duration === 'forever' ? checkoutAmountsForRenewal(amount, coupon) : amount;
    switch (action) {
      case 'renew': {
        // Pays the invoice left open by a failed payment, or else bills the next period.
        const open = [...this.invoices.values()].find(
          (invoice) => invoice.subscriptionId === subscription.id && invoice.status === 'open',
        );
        if (!open) this.advancePeriod(subscription);
        const invoice = open ?? this.newInvoice(subscription, customer, 'subscription_cycle', amount, total);
        invoice.status = 'paid';
        invoice.attemptCount += open ? 1 : 0;
        subscription.latestInvoiceId = invoice.id;
        subscription.status = 'active';
        await this.send('invoice.paid', invoiceJson(invoice));
        break;
      }
      case 'fail-payment': {
        // Stripe opens the next period when it attempts the renewal, paid or not.
        this.advancePeriod(subscription);
        const invoice = this.newInvoice(subscription, customer, 'subscription_cycle', amount, total);
        subscription.latestInvoiceId = invoice.id;
        subscription.status = 'past_due';
        await this.send('invoice.payment_failed', invoiceJson(invoice));
        break;
      }
      case 'mark-unpaid':
        subscription.status = 'unpaid';
        break;
      case 'delete':
        await this.endSubscription(subscription);
        return;
      default:
        throw badRequest(`Unknown action: ${String(action)}`);
    }
    if (subscription.status !== previousStatus) {
      await this.send('customer.subscription.updated', subscriptionJson(subscription), {
        status: previousStatus,
      });
    }
  }

  private advancePeriod(subscription: Subscription) {
    subscription.currentPeriodStart = subscription.currentPeriodEnd;
    subscription.currentPeriodEnd = oneMonthAfter(subscription.currentPeriodEnd);
  }

  private endSubscription(subscription: Subscription): Promise<void> {
    const now = this.nowSeconds();
    subscription.status = 'canceled';
    subscription.canceledAt = now;
    subscription.endedAt = now;
    return this.send('customer.subscription.deleted', subscriptionJson(subscription));
  }

  // ---------------------------------------------------------------- webhooks

  /** Records an event and queues its delivery; resolves once it is delivered or given up. */
  private send(
    type: string,
    object: { id: string } & Record<string, unknown>,
    previousAttributes?: Record<string, unknown>,
  ): Promise<void> {
    const event: StandInEvent = {
      id: stripeId('evt', 24),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: this.options.webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
    };
    const payload = JSON.stringify(event, null, 2);
    const delivery: WebhookDelivery = {
      event,
      payload,
      signature: signWebhookPayload(payload, this.options.webhookSecret, this.nowSeconds()),
      status: this.options.webhookUrl ? 'pending' : 'recorded',
      attempts: 0,
      lastStatusCode: null,
    };
    this.deliveries.push(delivery);
    this.options.log?.(`Stripe (local) : ${type} ${event.id} pour ${object.id}`);
    const webhookUrl = this.options.webhookUrl;
    if (!webhookUrl) return Promise.resolve();
    const delivered = this.queue.then(() => this.deliver(delivery, webhookUrl));
    this.queue = delivered;
    return delivered;
  }

  /** Delivers in order, each attempt freshly signed, retrying a few times on failure as Stripe does. */
  private async deliver(delivery: WebhookDelivery, webhookUrl: string): Promise<void> {
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      delivery.attempts = attempt;
      try {
        const result = await fetch(webhookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature':
              attempt === 1
                ? delivery.signature
                : signWebhookPayload(delivery.payload, this.options.webhookSecret, this.nowSeconds()),
          },
          body: delivery.payload,
          signal: AbortSignal.timeout(15_000),
        });
        await result.arrayBuffer();
        delivery.lastStatusCode = result.status;
        if (result.ok) {
          delivery.status = 'delivered';
          return;
        }
      } catch {
        delivery.lastStatusCode = null;
      }
      if (attempt < DELIVERY_ATTEMPTS)
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** (attempt - 1)));
    }
    delivery.status = 'failed';
    this.options.log?.(`Stripe (local) : échec de livraison de ${delivery.event.type} ${delivery.event.id}`);
  }

  idle(): Promise<void> {
    return this.queue;
  }
}

/** A renewal's total under a coupon that applies forever. */
function checkoutAmountsForRenewal(amount: number, coupon: Coupon): number {
  if (coupon.percentOff !== null) return amount - Math.round((amount * coupon.percentOff) / 100);
  return Math.max(0, amount - (coupon.amountOff ?? 0));
}

/** Starts the stand-in on 127.0.0.1. */
export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const port = options.port ?? (await freePort());
  const baseUrl = (options.publicBaseUrl ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
  const standIn = new StandIn(options, baseUrl);
  const server = createServer((request, response) => {
    standIn.handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Erreur interne du simulateur Stripe');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: baseUrl,
    port,
    connection: { host: '127.0.0.1', port, protocol: 'http' },
    deliveries: standIn.deliveries,
    pay: (id) => standIn.pay(id),
    act: (id, action) => standIn.act(id, action),
    idle: () => standIn.idle(),
    stop: async () => {
      await standIn.idle();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A fresh webhook signing secret for a local run. */
export const newWebhookSecret = () => `whsec_${randomUUID().replace(/-/g, '')}`;
