import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

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

/** `idempotencyKey`: the same for every sending of one click's creation (a retry gets the same code). */
export const createPromoCode = (idempotencyKey: string) => callApi('createPromoCode', { idempotencyKey });

/** How often a building export is read again while its panel shows. */
export const BUILDING_EXPORT_POLL_MS = 5_000;

/** A firm's latest data export (the admin names the lawyer), read again while it is being built. */
export function useDataExport(lawyerId?: string) {
  return useQuery({
    queryKey: KEYS.dataExport(lawyerId),
    queryFn: ({ signal }) => callApi('currentDataExport', { query: lawyerId ? { lawyerId } : {}, signal }),
    refetchInterval: (query) =>
      query.state.data?.export?.status === 'building' ? BUILDING_EXPORT_POLL_MS : false,
  });
}

/** 'Exporter mes données': starts a build; its reply is the export shown until it is read again. */
export function useStartDataExport(lawyerId?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi('startDataExport', { body: lawyerId ? { lawyerId } : {} }),
    onSuccess: (started) => client.setQueryData(KEYS.dataExport(lawyerId), { export: started }),
  });
}
