import type { Logger } from '../core/ports';
import { PaymentProviderUnavailableError, PaymentsError } from './billing-errors';

/** A provider's failure as the call's French message, logged without details. */
export function providerFailure(
  logger: Logger,
  message: string,
  error: unknown,
): PaymentProviderUnavailableError {
  logger.warn('Échec chez le prestataire de paiement', {
    errorName: (error as Error)?.name,
    errorMessage: error instanceof PaymentsError ? error.message : undefined,
  });
  return new PaymentProviderUnavailableError(message, { cause: error });
}

/** Calls the payment provider; its failure becomes the call's French message (`providerFailure`). */
export async function callProvider<T>(logger: Logger, message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw providerFailure(logger, message, error);
  }
}
