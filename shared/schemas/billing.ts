import * as z from 'zod';

import { MESSAGES } from '../messages';
import { EmailAddress, IsoTimestamp } from './common';
import { LicenseKeyInput, LicenseType } from './session';

/** Subscription status values as Stripe reports them. */
export const SubscriptionStatus = z.string();

/** A licence record (table license_keys, spec §3), as shown to its owner or an admin. */
export const License = z.object({
  licenseKey: z.string(),
  licenseType: LicenseType,
  userEmail: z.string().nullable(),
  isActive: z.boolean(),
  subscriptionStatus: SubscriptionStatus.nullable(),
  nextPaymentDue: IsoTimestamp.nullable(),
  /** A cancellation is scheduled: access until this date, no debit after. */
  accessEndsAt: IsoTimestamp.nullable(),
});
export type License = z.infer<typeof License>;

/** Subscription view (check-subscription reply). */
export const SubscriptionView = z.object({
  hasLicense: z.boolean(),
  licenseActive: z.boolean(),
  subscriptionStatus: z.string().nullable(),
  licenseKey: z.string().nullable(),
  nextPaymentDue: IsoTimestamp.nullable(),
  /** A cancellation is scheduled: access until this date (the paid month's end), then the licence ends. */
  accessEndsAt: IsoTimestamp.nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

/** Optional licence key some subscription calls carry (the session's licence is used otherwise). */
export const OptionalLicenseKeyRequest = z.object({ licenseKey: LicenseKeyInput.optional() });
export type OptionalLicenseKeyRequest = z.infer<typeof OptionalLicenseKeyRequest>;

/** Checkout request (spec §3). */
export const CheckoutRequest = z.object({
  email: EmailAddress(MESSAGES.purchase.emailInvalid),
  paymentType: z.literal('initial'),
  promoCode: z.string().trim().max(64).optional(),
});
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

/** Checkout reply (spec §3). */
export const CheckoutReply = z.object({ url: z.url().optional(), error: z.string().optional() });
export type CheckoutReply = z.infer<typeof CheckoutReply>;

/** Customer-portal reply. */
export const PortalReply = z.object({ url: z.url().optional(), error: z.string().optional() });
export type PortalReply = z.infer<typeof PortalReply>;

/** Promo code creation reply (spec §3). */
export const PromoCodeReply = z.object({
  success: z.boolean(),
  promoCode: z.string().optional(),
  percentOff: z.number().optional(),
  error: z.string().optional(),
});
export type PromoCodeReply = z.infer<typeof PromoCodeReply>;

/** update-license-email and cancel-subscription request. */
export const LicenseKeyRequest = z.object({ licenseKey: LicenseKeyInput });
export type LicenseKeyRequest = z.infer<typeof LicenseKeyRequest>;

/** request-portal-link (public): the billing e-mail a customer-portal link is sent to. */
export const PortalLinkRequest = z.object({ email: EmailAddress(MESSAGES.purchase.emailInvalid) });
export type PortalLinkRequest = z.infer<typeof PortalLinkRequest>;

/** request-portal-link reply: the same neutral sentence whatever the e-mail. */
export const PortalLinkReply = z.object({ message: z.string() });
export type PortalLinkReply = z.infer<typeof PortalLinkReply>;
