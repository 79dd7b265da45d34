import { createCustomer, customerEmailOf } from './customers';
import type { FormObject } from './form';
import { PageError } from './http';
import { createInvoice } from './invoices';
import {
  type CheckoutSession,
  checkoutAmounts,
  checkoutSessionJson,
  invoiceJson,
  isRedeemable,
  type LineItem,
  stripeId,
} from './objects';
import type { StandInState } from './state';
import { startSubscription } from './subscriptions';
import { badRequest, invalidParam, missingParam, noSuch, Params } from './validation';

const SESSION_LIFETIME_SECONDS = 24 * 3600;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** POST /v1/checkout/sessions (subscription mode, the one the product uses). */
export function createCheckoutSession(state: StandInState, form: FormObject) {
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
  const lineItems = lineItemsOf(params);
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
    const promotion = state.promotionCodes.get(id);
    if (!promotion) throw noSuch('promotion code', id, 'discounts[0][promotion_code]');
    if (!isRedeemable(promotion, state.couponOf(promotion), state.nowSeconds())) {
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
  const created = state.nowSeconds();
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
  state.checkoutSessions.set(session.id, session);
  return checkoutSessionView(state, session);
}

function lineItemsOf(params: Params): LineItem[] {
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

/** GET /v1/checkout/sessions/:id */
export function retrieveCheckoutSession(state: StandInState, id: string, form: FormObject) {
  Params.of(form, '', ['expand']).expand([]);
  const session = state.checkoutSessions.get(id);
  if (!session) throw noSuch('checkout.session', id);
  return checkoutSessionView(state, session);
}

/** The session as the API shows it; an open session past its lifetime becomes expired first. */
export function checkoutSessionView(state: StandInState, session: CheckoutSession) {
  if (session.status === 'open' && session.expiresAt <= state.nowSeconds()) session.status = 'expired';
  return checkoutSessionJson(session, {
    url: `${state.baseUrl}/checkout/${session.id}`,
    coupon: state.couponOf(state.promotionOf(session)),
    customerEmail: customerEmailOf(state, session.customerId),
  });
}

export function successUrlOf(session: CheckoutSession): string {
  return session.successUrl.replace(/\{CHECKOUT_SESSION_ID\}/g, session.id);
}

/**
 * What paying on the hosted-checkout page does: creates the customer, the subscription and its
 * paid first invoice, completes the session and sends the events; resolves to the success URL
 * once they are delivered.
 */
export async function payCheckoutSession(state: StandInState, checkoutSessionId: string): Promise<string> {
  const session = state.checkoutSessions.get(checkoutSessionId);
  if (!session) throw new PageError(404, "Cette session de paiement n'existe pas.");
  checkoutSessionView(state, session);
  if (session.status === 'complete') return successUrlOf(session);
  if (session.status === 'expired') throw new PageError(410, 'Cette session de paiement a expiré.');
  const promotion = state.promotionOf(session);
  const coupon = state.couponOf(promotion);
  const now = state.nowSeconds();
  if (promotion && !isRedeemable(promotion, coupon, now)) {
    throw new PageError(
      409,
      "Ce code promo n'est plus valide : il a atteint son nombre maximal d'utilisations ou a expiré.",
    );
  }
  const recurringItem = session.lineItems.find((item) => item.interval !== null) as LineItem;
  const customer = createCustomer(state, session.customerEmail, now);
  const subscription = startSubscription(state, {
    customer,
    item: recurringItem,
    metadata: session.subscriptionMetadata,
    coupon,
    now,
  });
  const amounts = checkoutAmounts(session, coupon);
  const invoice = createInvoice(
    state,
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
  Object.assign(session, {
    status: 'complete',
    paymentStatus: amounts.total === 0 ? 'no_payment_required' : 'paid',
    customerId: customer.id,
    subscriptionId: subscription.id,
    invoiceId: invoice.id,
  } satisfies Partial<CheckoutSession>);
  // Delivered in order before the buyer is sent back, so the licence exists when the site shows the success page.
  void state.webhooks.send('checkout.session.completed', checkoutSessionView(state, session));
  await state.webhooks.send('invoice.paid', invoiceJson(invoice));
  return successUrlOf(session);
}
