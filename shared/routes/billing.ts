import type { RouteDefinition } from './route-definition';

/** Checkout, subscription management, promo codes and the Stripe webhook. */
export const BILLING_ROUTES = {} as const satisfies Record<string, RouteDefinition>;
