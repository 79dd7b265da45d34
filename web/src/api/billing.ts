import type { RequestOf } from '../../../shared';
import { callApi } from './api-client';
import { KEYS } from './keys';

/* Licences and subscriptions: the purchase, the portal, the subscription's state and actions. */

export const createCheckout = (body: RequestOf<'createCheckout'>) => callApi('createCheckout', { body });

export const requestPortalLink = (email: string) => callApi('requestPortalLink', { body: { email } });

export const subscriptionQuery = {
  queryKey: KEYS.subscription,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('checkSubscription', { body: {}, signal }),
};

export const checkSubscription = () => callApi('checkSubscription', { body: {} });

export const openCustomerPortal = () => callApi('customerPortal');

export const updateLicenseEmail = (licenseKey: string) =>
  callApi('updateLicenseEmail', { body: { licenseKey } });

export const cancelSubscription = (licenseKey: string) =>
  callApi('cancelSubscription', { body: { licenseKey } });

export const reactivateSubscription = (licenseKey: string) =>
  callApi('reactivateSubscription', { body: { licenseKey } });

export const createPromoCode = () => callApi('createPromoCode');
