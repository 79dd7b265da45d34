import * as z from 'zod';

import { SECOND_FACTOR } from '../constants';
import { MESSAGES } from '../messages';
import { IsoTimestamp } from './common';
import { LicenseKeyInput, VerifyLicenseReply } from './session';

/** An authenticator-app code: 6 digits (spaces typed by the user are dropped). */
export const TotpCode = z
  .string(MESSAGES.secondFactor.codeRequired)
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z.string().regex(new RegExp(`^\\d{${SECOND_FACTOR.totp.digits}}$`), MESSAGES.secondFactor.invalidCode),
  );

/** A recovery code as typed: case, spaces and the dash do not matter. */
export const RecoveryCode = z
  .string(MESSAGES.secondFactor.codeRequired)
  .transform((value) => value.replace(/[\s-]+/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .length(SECOND_FACTOR.recoveryCodeHalfLength * 2, MESSAGES.secondFactor.invalidCode)
      .regex(/^[A-Z0-9]+$/, MESSAGES.secondFactor.invalidCode),
  );

/**
 * A WebAuthn credential as the browser library serialises it (RegistrationResponseJSON or
 * AuthenticationResponseJSON); the server library checks everything inside it.
 */
export const PublicKeyCredentialJson = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(8192) }),
  clientExtensionResults: z.looseObject({}).default({}),
});
export type PublicKeyCredentialJson = z.infer<typeof PublicKeyCredentialJson>;

/** WebAuthn options for `navigator.credentials.create/get`, passed through to the browser library. */
export const PasskeyOptionsReply = z.object({ options: z.looseObject({ challenge: z.string() }) });
export type PasskeyOptionsReply = z.infer<typeof PasskeyOptionsReply>;

/** A passkey as the settings page lists it (never its public key). */
export const PasskeySummary = z.object({ id: z.string(), createdAt: IsoTimestamp });

/** The second factor of the caller's licence. */
export const SecondFactorStatus = z.object({
  /** Whether the licence must pass a second factor (an admin licence, or one that enrolled one). */
  required: z.boolean(),
  enrolled: z.boolean(),
  totp: z.boolean(),
  passkeys: z.array(PasskeySummary),
  recoveryCodesLeft: z.number().int().min(0),
  /** When this session last passed the factor. */
  verifiedAt: IsoTimestamp.nullable(),
});
export type SecondFactorStatus = z.infer<typeof SecondFactorStatus>;

/** A TOTP enrolment started: the secret to scan (QR code, SVG data URL) or type. Shown once. */
export const TotpEnrolment = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrCodeDataUrl: z.string(),
});
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

export const ConfirmTotpRequest = z.object({ code: TotpCode });
export const RegisterPasskeyRequest = z.object({ credential: PublicKeyCredentialJson });

/**
 * A factor enrolled: the recovery codes (only with the licence's first factor, shown once) and,
 * when the enrolment completed a pending sign-in, the full session (as verify-license gives it).
 */
export const EnrolmentReply = z.object({
  recoveryCodes: z.array(z.string()),
  session: VerifyLicenseReply.optional(),
});
export type EnrolmentReply = z.infer<typeof EnrolmentReply>;

/** A second-factor check: to finish signing in, or to confirm a sensitive action (step-up). */
export const VerifySecondFactorRequest = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: TotpCode }),
  z.object({ method: z.literal('recovery'), code: RecoveryCode }),
  z.object({ method: z.literal('passkey'), credential: PublicKeyCredentialJson }),
]);
export type VerifySecondFactorRequest = z.input<typeof VerifySecondFactorRequest>;

export const VerifySecondFactorReply = z.object({
  verifiedAt: IsoTimestamp,
  session: VerifyLicenseReply.optional(),
});
export type VerifySecondFactorReply = z.infer<typeof VerifySecondFactorReply>;

/** An admin resets another licence's second factor (it must enrol again). */
export const ResetSecondFactorRequest = z.object({ licenseKey: LicenseKeyInput });
export const ResetSecondFactorReply = z.object({ success: z.literal(true) });

/** A factor removed, or a remembered browser forgotten. */
export const SecondFactorChangeReply = z.object({ success: z.literal(true) });

/** A browser that passed the licence's factor, as the security settings list it (never its cookie). */
export const RememberedBrowser = z.object({
  id: z.string(),
  /** What the owner recognises it by: 'Chrome sur Windows'. */
  label: z.string(),
  createdAt: IsoTimestamp,
  lastUsedAt: IsoTimestamp,
  /** When its cookie expires (30 days after it last passed the factor). */
  expiresAt: IsoTimestamp,
  /** The browser this list is shown in. */
  current: z.boolean(),
});
export type RememberedBrowser = z.infer<typeof RememberedBrowser>;

export const RememberedBrowserList = z.object({ browsers: z.array(RememberedBrowser) });
export type RememberedBrowserList = z.infer<typeof RememberedBrowserList>;
