import type { RequestOf } from '../../../shared';
import { callApi } from './api-client';
import { KEYS } from './keys';

/*
 * The second factor's calls. `token` is the session to send: a pending sign-in's, or by default the
 * stored one. No query hook here: the step-up dialog, in /login's entry, reads the status through
 * this file, and the query library stays out of /login (remembered-browsers.ts has the hooks).
 */

export const secondFactorStatusQuery = {
  queryKey: KEYS.secondFactor,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('secondFactorStatus', { signal }),
};

export const secondFactorStatus = () => callApi('secondFactorStatus');

export const startTotpEnrolment = (token?: string) => callApi('startTotpEnrolment', token ? { token } : {});

export const confirmTotpEnrolment = (code: string, token?: string) =>
  callApi('confirmTotpEnrolment', { ...(token ? { token } : {}), body: { code } });

export const passkeyRegistrationOptions = (token?: string) =>
  callApi('passkeyRegistrationOptions', token ? { token } : {});

export const registerPasskey = (body: RequestOf<'registerPasskey'>, token?: string) =>
  callApi('registerPasskey', { ...(token ? { token } : {}), body });

export const passkeyAuthenticationOptions = (token?: string) =>
  callApi('passkeyAuthenticationOptions', token ? { token } : {});

export const verifySecondFactor = (body: RequestOf<'verifySecondFactor'>, token?: string) =>
  callApi('verifySecondFactor', { ...(token ? { token } : {}), body });

export const resetSecondFactor = (licenseKey: string) =>
  callApi('resetSecondFactor', { body: { licenseKey } });
