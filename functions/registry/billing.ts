import { createCancelSubscriptionHandler } from '../cancel-subscription';
import { createCheckSubscriptionHandler } from '../check-subscription';
import { createCreateCheckoutHandler } from '../create-checkout';
import { createCreatePromoCodeHandler } from '../create-promo-code';
import { createCustomerPortalHandler } from '../customer-portal';
import type { HandlerFactory } from '../registry';
import { createStripeWebhookHandler } from '../stripe-webhook';
import { createUpdateLicenseEmailHandler } from '../update-license-email';

export const BILLING_HANDLERS: Record<string, HandlerFactory> = {
  'create-checkout': createCreateCheckoutHandler,
  'check-subscription': createCheckSubscriptionHandler,
  'customer-portal': createCustomerPortalHandler,
  'cancel-subscription': createCancelSubscriptionHandler,
  'update-license-email': createUpdateLicenseEmailHandler,
  'create-promo-code': createCreatePromoCodeHandler,
  'stripe-webhook': createStripeWebhookHandler,
};
