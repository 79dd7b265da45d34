import { callApi } from './api-client';

/*
 * The sign-in calls, for /login's own code (no query layer there: it stays within its budget).
 */

export const verifyLicense = (licenseKey: string) => callApi('verifyLicense', { body: { licenseKey } });

/** Ends a session on the server; the caller has already forgotten it. */
export const signOut = (token: string) => callApi('signOut', { token });
