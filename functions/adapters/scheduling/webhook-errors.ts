import { MESSAGES } from '../../../shared/messages';

/** Every error the webhook delivery raises; its message is the French text the user reads. */
export class WebhookDeliveryError extends Error {
  override name = 'WebhookDeliveryError';
}

/** Why a webhook URL is not a URL we call; for logs, the user always reads the same text. */
export type InvalidUrlReason = 'unparsable' | 'too-long' | 'scheme' | 'credentials' | 'host';

/** The URL is not an http(s) URL we may call. Final: retrying cannot help. */
export class InvalidWebhookUrlError extends WebhookDeliveryError {
  override name = 'InvalidWebhookUrlError';
  constructor(
    readonly reason: InvalidUrlReason,
    options?: ErrorOptions,
  ) {
    super(MESSAGES.execution.invalidWebhookUrl, options);
  }
}

/** The host is, or resolves to, a loopback, private or reserved address. Final. */
export class PrivateAddressError extends WebhookDeliveryError {
  override name = 'PrivateAddressError';
  constructor(
    /** The first refused address, for logs only: it must not reach the user. */
    readonly address: string,
  ) {
    super(MESSAGES.execution.privateAddress);
  }
}

/** The host name could not be resolved (or resolved to nothing). Worth retrying. */
export class WebhookResolutionError extends WebhookDeliveryError {
  override name = 'WebhookResolutionError';
  constructor(
    readonly hostname: string,
    readonly code: string | undefined,
    options?: ErrorOptions,
  ) {
    super(MESSAGES.execution.connectionError(resolutionDetail(code)), options);
  }
}

/** The call did not get its answer within the time-out. Worth retrying. */
export class WebhookTimeoutError extends WebhookDeliveryError {
  override name = 'WebhookTimeoutError';
  constructor() {
    super(MESSAGES.execution.timeout);
  }
}

function resolutionDetail(code: string | undefined): string {
  if (code === 'ENOTFOUND' || code === 'ENODATA') return MESSAGES.execution.connection.hostNotFound;
  if (code === undefined) return MESSAGES.execution.connection.noAddress;
  return `${MESSAGES.execution.connection.dnsUnavailable} (${code})`;
}
