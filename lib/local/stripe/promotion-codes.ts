import type { FormObject } from './form';
import { type Coupon, couponJson, type PromotionCode, promotionCodeJson, stripeId } from './objects';
import type { StandInState } from './state';
import { badRequest, invalidParam, missingParam, noSuch, Params } from './validation';

/** Stripe's rule for a promotion code: letters and digits only. */
const PROMO_CODE_PATTERN = /^[A-Za-z0-9]{1,500}$/;

/** POST /v1/coupons */
export function createCoupon(state: StandInState, form: FormObject) {
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
    throw badRequest('Must provide exactly one of these parameters: amount_off, percent_off.', 'percent_off');
  }
  const currency = params.string('currency')?.toLowerCase() ?? null;
  if (amountOff !== null && !currency) throw missingParam('currency');
  const duration = params.oneOf('duration', ['once', 'repeating', 'forever'] as const) ?? 'once';
  const durationInMonths = params.integer('duration_in_months', { min: 1, max: 36 }) ?? null;
  if (duration === 'repeating' && durationInMonths === null) throw missingParam('duration_in_months');
  const id = params.string('id') ?? stripeId('', 8).slice(1);
  if (state.coupons.has(id)) throw badRequest('Coupon already exists.', 'id', 'resource_already_exists');
  const coupon: Coupon = {
    id,
    created: state.nowSeconds(),
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
  state.coupons.set(coupon.id, coupon);
  return couponJson(coupon);
}

/** POST /v1/promotion_codes */
export function createPromotionCode(state: StandInState, form: FormObject) {
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
  const coupon = state.coupons.get(couponId);
  if (!coupon) throw noSuch('coupon', couponId, 'promotion[coupon]');
  const code = params.string('code') ?? stripeId('', 8).slice(1).toUpperCase();
  if (!PROMO_CODE_PATTERN.test(code)) throw invalidParam('code', `Invalid code: ${code}`);
  const taken = [...state.promotionCodes.values()].some(
    (existing) => existing.active && existing.code.toLowerCase() === code.toLowerCase(),
  );
  if (taken) {
    throw badRequest(
      `An active promotion code with \`code: ${code}\` already exists.`,
      'code',
      'resource_already_exists',
    );
  }
  const now = state.nowSeconds();
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
  state.promotionCodes.set(created.id, created);
  return promotionCodeJson(created, coupon, expand.has('promotion.coupon'));
}

/** GET /v1/promotion_codes */
export function listPromotionCodes(state: StandInState, form: FormObject) {
  const params = new Params(form, '', ['code', 'active', 'coupon', 'limit', 'expand']);
  const expand = params.expand(['data.promotion.coupon']);
  const code = params.string('code')?.toLowerCase();
  const active = params.boolean('active');
  const couponId = params.string('coupon');
  const limit = params.integer('limit', { min: 1, max: 100 }) ?? 10;
  const matching = [...state.promotionCodes.values()]
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
          state.coupons.get(promotion.couponId),
          expand.has('data.promotion.coupon'),
        ),
      ),
    has_more: matching.length > limit,
    url: '/v1/promotion_codes',
  };
}
