import * as z from 'zod';

import {
  CheckoutReply,
  CheckoutRequest,
  LicenseKeyRequest,
  OptionalLicenseKeyRequest,
  PortalLinkReply,
  PortalLinkRequest,
  PortalReply,
  PromoCodeReply,
  SubscriptionView,
} from '../schemas/billing';
import { SuccessReply } from '../schemas/common';
import { CurrentDataExport, DataExport, DataExportQuery, DataExportRequest } from '../schemas/data-export';
import type { RouteDefinition } from './route-definition';

/** Reply to a Stripe webhook delivery: Stripe only reads the status code, the body helps debugging. */
export const StripeWebhookReply = z.object({
  received: z.boolean(),
  outcome: z.enum(['applied', 'duplicate', 'ignored']),
});
export type StripeWebhookReply = z.infer<typeof StripeWebhookReply>;

/** Checkout, subscription management, promo codes and the Stripe webhook. */
export const BILLING_ROUTES = {
  createCheckout: {
    method: 'POST',
    path: '/api/create-checkout',
    handler: 'create-checkout',
    access: 'public',
    request: CheckoutRequest,
    response: CheckoutReply,
  },
  checkSubscription: {
    method: 'POST',
    path: '/api/check-subscription',
    handler: 'check-subscription',
    access: 'member',
    request: OptionalLicenseKeyRequest,
    response: SubscriptionView,
  },
  customerPortal: {
    method: 'POST',
    path: '/api/customer-portal',
    handler: 'customer-portal',
    access: 'member',
    request: OptionalLicenseKeyRequest,
    response: PortalReply,
  },
  /**
   * The customer portal without signing in (a suspended or cancelled firm cannot): a link
   * e-mailed to the licence's address. Throttled per client; the reply never says if it exists.
   */
  requestPortalLink: {
    method: 'POST',
    path: '/api/request-portal-link',
    handler: 'request-portal-link',
    access: 'public',
    request: PortalLinkRequest,
    response: PortalLinkReply,
  },
  cancelSubscription: {
    method: 'POST',
    path: '/api/cancel-subscription',
    handler: 'cancel-subscription',
    access: 'member',
    request: OptionalLicenseKeyRequest,
    response: SuccessReply,
  },
  /** Withdraws a cancellation scheduled for the end of the paid month: one click, before that date. */
  reactivateSubscription: {
    method: 'POST',
    path: '/api/reactivate-subscription',
    handler: 'cancel-subscription',
    access: 'member',
    request: OptionalLicenseKeyRequest,
    response: SuccessReply,
  },
  updateLicenseEmail: {
    method: 'POST',
    path: '/api/update-license-email',
    handler: 'update-license-email',
    access: 'member',
    request: LicenseKeyRequest,
    response: SuccessReply,
  },
  createPromoCode: {
    method: 'POST',
    path: '/api/create-promo-code',
    handler: 'create-promo-code',
    access: 'admin',
    // Asks for the second factor again when its last check is older than 15 minutes.
    sensitive: true,
    // Stripe keeps the first result under the key (Stripe's own idempotent requests).
    idempotent: { status: 200 },
    response: PromoCodeReply,
  },
  /** Called by Stripe, not by the SPA: no session, the body is read raw to verify its signature. */
  stripeWebhook: {
    method: 'POST',
    path: '/api/stripe-webhook',
    handler: 'stripe-webhook',
    access: 'public',
    response: StripeWebhookReply,
  },
  /**
   * 'Exporter mes données': the firm's data as a ZIP, built in the background (a lawyer or notary:
   * his own firm; an admin: the lawyer he names). Asks the second factor again; one at a time.
   */
  startDataExport: {
    method: 'POST',
    path: '/api/data-exports',
    handler: 'data-exports',
    access: 'signed-in',
    sensitive: true,
    request: DataExportRequest,
    response: DataExport,
  },
  /** The firm's latest export and, once ready, its download link (valid one hour). */
  currentDataExport: {
    method: 'GET',
    path: '/api/data-exports/current',
    handler: 'data-exports',
    access: 'signed-in',
    query: DataExportQuery,
    response: CurrentDataExport,
  },
} as const satisfies Record<string, RouteDefinition>;
