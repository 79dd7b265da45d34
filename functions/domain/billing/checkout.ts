import { MESSAGES } from '../../../shared/messages';
import type { CheckoutRequest, PromoCodeReply } from '../../../shared/schemas/billing';
import { IdempotencyKeyReusedError, InvalidInputError } from '../core/errors';
import type { Logger } from '../core/ports';
import { PromotionCodeRefusedError } from './billing-errors';
import type { CreatedPromotionCode, Payments } from './ports';
import { callProvider, providerFailure } from './provider';

export interface CheckoutServiceDependencies {
  readonly payments: Pick<
    Payments,
    'findActivePromotionCode' | 'createCheckoutSession' | 'createTestPromotionCode'
  >;
  readonly logger: Logger;
  /** The site's public origin (`https://…`, no trailing slash): Stripe's return URLs. */
  readonly publicUrl: string;
}

/** Buying a licence: the Stripe Checkout, and the test promotion codes it accepts. */
export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDependencies) {}

  /**
   * create-checkout: a Stripe Checkout for the licence, with the promotion code if it is usable.
   * @throws InvalidInputError 'Code promo invalide ou expiré' for an unknown, inactive or used-up code
   * @throws PaymentProviderUnavailableError 'Erreur lors de la création du paiement' when Stripe fails
   */
  async createCheckout(request: CheckoutRequest): Promise<{ url: string }> {
    const promoCode = request.promoCode?.trim();
    let promotionCodeId: string | undefined;
    if (promoCode) {
      const promotion = await callProvider(this.deps.logger, MESSAGES.purchase.checkoutFailed, () =>
        this.deps.payments.findActivePromotionCode(promoCode),
      );
      const usable =
        promotion?.active === true &&
        (promotion.maxRedemptions === null || promotion.timesRedeemed < promotion.maxRedemptions);
      if (!promotion || !usable) throw new InvalidInputError('promoCode', MESSAGES.purchase.promoInvalid);
      promotionCodeId = promotion.id;
    }
    try {
      const session = await this.deps.payments.createCheckoutSession({
        email: request.email,
        ...(promotionCodeId ? { promotionCodeId } : {}),
        successUrl: `${this.deps.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.deps.publicUrl}/login`,
        metadata: { product: 'license', licenseType: 'lawyer' },
      });
      return { url: session.url };
    } catch (error) {
      // The code was usable a moment ago but Stripe refused it: used up in between.
      if (error instanceof PromotionCodeRefusedError)
        throw new InvalidInputError('promoCode', MESSAGES.purchase.promoInvalid);
      throw providerFailure(this.deps.logger, MESSAGES.purchase.checkoutFailed, error);
    }
  }

  /**
   * create-promo-code (admin): a 100 % promotion code usable at most 10 times. Under an idempotency
   * key (the caller's, scoped), a retry gets the code the first call created, and the key reused
   * for another request is refused as the API's other creates refuse it.
   */
  async createTestPromoCode(idempotencyKey: string | null = null): Promise<PromoCodeReply> {
    let created: CreatedPromotionCode;
    try {
      created = await this.deps.payments.createTestPromotionCode(idempotencyKey);
    } catch (error) {
      if (error instanceof IdempotencyKeyReusedError) throw error;
      throw providerFailure(this.deps.logger, MESSAGES.promo.createFailed, error);
    }
    this.deps.logger.info('Code promo test créé', { promotionCodeId: created.id });
    return { success: true, promoCode: created.code, percentOff: created.percentOff };
  }
}
