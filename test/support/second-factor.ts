import { Secret, TOTP } from 'otpauth';
import { LicenseRepository } from '../../functions/data/identity/licenses';

import { issueLicense } from '../../functions/domain/identity/licenses';
import { createLicenseKeyVault } from '../../functions/security/license-key-vault';
import { SECOND_FACTOR } from '../../shared/constants';
import type {
  EnrolmentReply,
  TotpEnrolment,
  VerifySecondFactorReply,
} from '../../shared/schemas/second-factor';
import type { LicenseType, VerifyLicenseReply } from '../../shared/schemas/session';
import { apiEvent, invoke, type TestApp } from './app';
import { type CallOptions, callRoute, handlerOf } from './directory';

/** The user agent of the browsers these tests sign in from. */
export const OWNER_BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
export const OTHER_BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The code an authenticator app shows for `secret` at the test clock's time (or `offsetSteps` later). */
export function codeOf(app: TestApp, secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: app.clock.now().getTime() + offsetSteps * 30_000,
  });
}

/** A code that is not the right one now (nor within the drift window). */
export function wrongCodeOf(app: TestApp, secret: string, seed: number): string {
  const right = new Set([-1, 0, 1].map((step) => codeOf(app, secret, step)));
  for (let candidate = seed; ; candidate += 1) {
    const code = String(candidate % 1_000_000).padStart(6, '0');
    if (!right.has(code)) return code;
  }
}

/** The device cookie a reply set (`name=value`, for the browser's next requests), and its attributes. */
export function deviceCookieOf(result: { cookies?: string[] }): { cookie: string; attributes: string[] } {
  const header = result.cookies?.find((cookie) =>
    cookie.startsWith(`${SECOND_FACTOR.rememberedBrowser.cookieName}=`),
  );
  if (!header) throw new Error('Aucun cookie d’appareil posé');
  const [cookie, ...attributes] = header.split(/;\s*/);
  return { cookie: cookie!, attributes };
}

/** Signs in with a licence key from a browser (its cookies), through verify-license. */
export async function signInFrom(app: TestApp, licenseKey: string, cookies: string[] = []) {
  const { body } = await invoke<VerifyLicenseReply>(
    handlerOf(app, 'verify-license'),
    apiEvent('POST', '/api/verify-license', {
      body: { licenseKey },
      sourceIp: `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
      cookies,
    }),
  );
  return body;
}

/** A licence of `licenseType`, its key, and a first session (full: no factor yet). */
export async function issueLicenseFor(app: TestApp, licenseType: LicenseType, userEmail: string | null) {
  const { licenseKey, record } = await issueLicense(
    new LicenseRepository(app.table),
    createLicenseKeyVault(app.keys),
    { licenseType, userEmail, subscriptionStatus: licenseType === 'admin' ? null : 'active' },
    app.clock.now().toISOString(),
  );
  return { licenseKey, keyHash: record.keyHash };
}

/**
 * Enrols TOTP from a session (pending or full), from the owner's browser: the secret, the recovery
 * codes, the session that goes on and the device cookie the browser got.
 */
export async function enrolTotp(app: TestApp, token: string, options: CallOptions = {}) {
  const call = <T>(name: Parameters<typeof callRoute>[1], more: CallOptions = {}) =>
    callRoute<T>(app, name, { userAgent: OWNER_BROWSER, ...options, ...more, token });
  const { body: enrolment } = await call<TotpEnrolment>('startTotpEnrolment');
  const confirmed = await call<EnrolmentReply>('confirmTotpEnrolment', {
    body: { code: codeOf(app, enrolment.secret) },
  });
  if (confirmed.statusCode !== 200) throw new Error(`Enrôlement refusé: ${JSON.stringify(confirmed.body)}`);
  // The next code: the first one's time step is used up.
  app.clock.advance(30_000);
  return {
    secret: enrolment.secret,
    recoveryCodes: confirmed.body.recoveryCodes,
    token: confirmed.body.session?.token ?? token,
    device: deviceCookieOf(confirmed.result).cookie,
  };
}

/** Checks a TOTP code from a session; the reply and the device cookie it set, if any. */
export async function verifyCode(app: TestApp, token: string, code: string, options: CallOptions = {}) {
  const reply = await callRoute<VerifySecondFactorReply>(app, 'verifySecondFactor', {
    userAgent: OWNER_BROWSER,
    ...options,
    token,
    body: { method: 'totp', code },
  });
  return reply;
}
