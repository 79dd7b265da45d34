import { HttpError } from '../domain/errors';

/**
 * Failures of the payment provider, as the billing service sees them: the port's adapters wrap
 * whatever their SDK throws into these, so that the service never depends on one provider's errors.
 */
export class PaymentsError extends Error {
  override name = 'PaymentsError';
}

/** The webhook's signature header is missing, malformed, wrong for the secret or too old. */
export class WebhookSignatureError extends PaymentsError {
  override name = 'WebhookSignatureError';
}

/** The provider refused the promotion code while creating the checkout (unknown, inactive, used up). */
export class PromotionCodeRefusedError extends PaymentsError {
  override name = 'PromotionCodeRefusedError';
}

/**
 * A billing call failed because the payment provider did: a 4xx, never a 5xx (issue #5), and
 * 424 because the request itself was fine and a dependency of it failed. The French message is
 * the spec's text for the call.
 */
export class PaymentProviderError extends HttpError {
  override name = 'PaymentProviderError';
  constructor(message: string, options?: ErrorOptions) {
    super(424, message, options);
  }
}
