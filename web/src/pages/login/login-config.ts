import { z } from 'zod';

import { CheckoutRequest, VerifyLicenseRequest } from '../../../../shared';

/** The fields of the purchase form. */
export type PurchaseField = 'email' | 'promoCode';
export type PurchaseErrors = Partial<Record<PurchaseField, string>>;

/** Checks a typed licence key with the shared rule (at least 5 characters). */
export function validateLicenseKey(
  licenseKey: string,
): { readonly ok: true; readonly licenseKey: string } | { readonly ok: false; readonly error: string } {
  const result = VerifyLicenseRequest.safeParse({ licenseKey });
  if (result.success) return { ok: true, licenseKey: result.data.licenseKey };
  return { ok: false, error: result.error.issues[0]?.message ?? '' };
}

/** Checks the purchase form with the shared checkout schema; errors are keyed by field. */
export function validatePurchase(values: {
  readonly email: string;
  readonly promoCode: string;
}):
  | { readonly ok: true; readonly request: CheckoutRequest }
  | { readonly ok: false; readonly errors: PurchaseErrors } {
  const promoCode = values.promoCode.trim();
  const result = CheckoutRequest.safeParse({
    email: values.email,
    paymentType: 'initial',
    promoCode: promoCode === '' ? undefined : promoCode,
  });
  if (result.success) return { ok: true, request: result.data };
  const { fieldErrors } = z.flattenError(result.error);
  return { ok: false, errors: { email: fieldErrors.email?.[0], promoCode: fieldErrors.promoCode?.[0] } };
}
