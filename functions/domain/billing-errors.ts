import { MESSAGES } from '../../shared/messages';
import { HttpError } from './errors';

/**
 * Failures of the payment provider, as the billing service sees them: the port's adapters wrap
 * whatever their SDK throws into these, so that the service never depends on one provider's
 * errors. They are HttpErrors (one error hierarchy): one that reaches the error middleware is a
 * 424 — the request was fine, a dependency of it failed — never a 5xx. The message names the
 * operation and Stripe's error type and code, never a key or a customer's data.
 */
export class PaymentsError extends HttpError {
  override name = 'PaymentsError';
  constructor(message: string, options?: ErrorOptions & { readonly statusCode?: number }) {
    super(options?.statusCode ?? 424, message, options);
  }
}

/** The webhook's signature header is missing, malformed, wrong for the secret or too old: a 400. */
export class WebhookSignatureError extends PaymentsError {
  override name = 'WebhookSignatureError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, statusCode: 400 });
  }
}

/**
 * The provider refused the promotion code while creating the checkout (unknown, inactive, used
 * up): a 400 with the purchase form's message.
 */
export class PromotionCodeRefusedError extends PaymentsError {
  override name = 'PromotionCodeRefusedError';
  /** @param detail what the provider said, for the logs */
  constructor(
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(MESSAGES.purchase.promoInvalid, { ...options, statusCode: 400 });
  }
}

/**
 * A billing call failed because the payment provider did: 424, because the request itself was
 * fine and a dependency of it failed. The French message is the spec's text for the call.
 */
export class PaymentProviderError extends PaymentsError {
  override name = 'PaymentProviderError';
}
