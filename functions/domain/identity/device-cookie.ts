import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

import { SECOND_FACTOR } from '../../../shared/constants';

const ISSUER = 'assistant-juridique';
/** Its own audience: a device cookie is never a session token, nor the reverse. */
const AUDIENCE = 'remembered-browser';
const LICENSE_CLAIM = 'lic';
const { cookieName, lifetimeSeconds } = SECOND_FACTOR.rememberedBrowser;

/** What a device cookie says: which remembered browser, of which licence. */
export interface DeviceCookieClaims {
  readonly deviceId: string;
  readonly licenseKeyHash: string;
}

/**
 * The device cookie of a remembered browser: a JWT (HS256, the session signing key) naming the
 * browser and its licence, valid `lifetimeSeconds`. Its signature only says who issued it: the
 * browser must also still be remembered (not forgotten from the security settings) to count.
 */
export async function signDeviceCookie(
  key: Uint8Array,
  claims: DeviceCookieClaims,
  now: Date,
): Promise<{ readonly token: string; readonly expiresAt: number }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + lifetimeSeconds;
  const token = await new SignJWT({ [LICENSE_CLAIM]: claims.licenseKeyHash })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.deviceId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt };
}

/** The claims of a device cookie that verifies and has not expired, else null (never an error). */
export async function readDeviceCookie(
  key: Uint8Array,
  token: string | undefined,
  now: Date,
): Promise<DeviceCookieClaims | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    });
    const licenseKeyHash = payload[LICENSE_CLAIM];
    if (!payload.sub || typeof licenseKeyHash !== 'string') return null;
    return { deviceId: payload.sub, licenseKeyHash };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/**
 * Whether cookies may be marked Secure for a site: everywhere but plain http on this machine
 * (the local runtime), where a Secure cookie would never come back.
 */
export const secureCookiesFor = (siteOrigin: string): boolean => {
  const { protocol, hostname } = new URL(siteOrigin);
  return !(protocol === 'http:' && (hostname === 'localhost' || hostname === '127.0.0.1'));
};

/**
 * The `Set-Cookie` value that gives a browser its device cookie: HttpOnly (no script reads it),
 * SameSite=Strict (never sent by another site's request), sent to the API only, for as long as
 * the token is valid.
 */
export function deviceCookieOf(token: string, options: { readonly secure: boolean }): string {
  return [
    `${cookieName}=${token}`,
    'Path=/api',
    `Max-Age=${lifetimeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The device cookie a request carries, if any (`name=value` pairs as API Gateway hands them). */
export function deviceCookieIn(cookies: readonly string[]): string | undefined {
  for (const cookie of cookies) {
    const separator = cookie.indexOf('=');
    if (separator > 0 && cookie.slice(0, separator).trim() === cookieName)
      return cookie.slice(separator + 1).trim();
  }
  return undefined;
}
