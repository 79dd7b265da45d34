import * as z from 'zod';

import { LICENSE_KEY, LICENSE_TYPES } from '../constants';
import { MESSAGES } from '../messages';
import { IsoTimestamp } from './common';

export const LicenseType = z.enum(LICENSE_TYPES);
export type LicenseType = z.infer<typeof LicenseType>;

/** Roles of a signed-in user; the role is the licence type. */
export const Role = LicenseType;
export type Role = LicenseType;

/** A licence key as typed by a user: at least 5 characters. */
export const LicenseKeyInput = z
  .string(MESSAGES.login.keyRequired)
  .trim()
  .min(LICENSE_KEY.minLength, MESSAGES.login.keyRequired)
  .max(LICENSE_KEY.maxLength, MESSAGES.login.invalidKey);

/** The ways a second factor is checked: a passkey, an authenticator-app code, a recovery code. */
export const SecondFactorMethod = z.enum(['passkey', 'totp', 'recovery']);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethod>;

/**
 * What the licence's second step asks, in the verify-license reply of a "second factor pending"
 * session: `enrol` (an admin licence without a factor yet) or `verify` with the methods it has.
 */
export const SecondFactorStep = z.object({
  step: z.enum(['enrol', 'verify']),
  methods: z.array(SecondFactorMethod),
});
export type SecondFactorStep = z.infer<typeof SecondFactorStep>;

/** verify-license request (spec §7). */
export const VerifyLicenseRequest = z.object({ licenseKey: LicenseKeyInput });
export type VerifyLicenseRequest = z.infer<typeof VerifyLicenseRequest>;

/**
 * verify-license reply: the spec's fields (valid, error, licenseType, userEmail) plus the signed
 * session token, its absolute expiry and the display name of the user (spec §5 display name rule).
 */
export const VerifyLicenseReply = z.object({
  valid: z.boolean(),
  error: z.string().optional(),
  licenseType: LicenseType.optional(),
  userEmail: z.string().optional(),
  displayName: z.string().optional(),
  token: z.string().optional(),
  expiresAt: IsoTimestamp.optional(),
  /**
   * Present when the key was right but the licence must pass its second factor: the token is then
   * a "second factor pending" one, accepted only by the second-factor calls.
   */
  secondFactor: SecondFactorStep.optional(),
});
export type VerifyLicenseReply = z.infer<typeof VerifyLicenseReply>;

/** The session user kept in the browser's local storage (spec §3), with the session token. */
export const SessionUser = z.object({
  licenseKey: z.string(),
  role: Role,
  name: z.string(),
  email: z.string(),
  token: z.string(),
  expiresAt: IsoTimestamp,
});
export type SessionUser = z.infer<typeof SessionUser>;

/** End-session reply. */
export const SignOutReply = z.object({ success: z.literal(true) });
export type SignOutReply = z.infer<typeof SignOutReply>;
