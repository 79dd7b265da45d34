import { MESSAGES } from '../../../shared/messages';
import { DomainError } from '../core/errors';

/**
 * Failures of the payment provider, as the billing service sees them: the port's adapters wrap
 * whatever their SDK throws into these, so that the service never depends on one provider's
 * errors. The request was fine and a dependency of it failed. The message names the operation and
 * Stripe's error type and code, never a key or a customer's data.
 */
export class PaymentsError extends DomainError {
  override name = 'PaymentsError';
}

/** The webhook's signature header is missing, malformed, wrong for the secret or too old. */
export class WebhookSignatureInvalidError extends PaymentsError {
  override name = 'WebhookSignatureInvalidError';
}

/**
 * A correctly signed event whose content cannot be read (not JSON, or without the object it is
 * about). It came from Stripe, so it is acknowledged without effect rather than refused: Stripe
 * would otherwise retry it for days, and it would never read better.
 */
export class UnreadableWebhookEventError extends PaymentsError {
  override name = 'UnreadableWebhookEventError';
}

/**
 * The provider refused the promotion code while creating the checkout (unknown, inactive, used
 * up): the purchase form's message.
 */
export class PromotionCodeRefusedError extends PaymentsError {
  override name = 'PromotionCodeRefusedError';
  /** @param detail what the provider said, for the logs */
  constructor(
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(MESSAGES.purchase.promoInvalid, options);
  }
}

/**
 * A billing call failed because the payment provider did. The French message is the spec's text
 * for the call.
 */
export class PaymentProviderUnavailableError extends PaymentsError {
  override name = 'PaymentProviderUnavailableError';
}
