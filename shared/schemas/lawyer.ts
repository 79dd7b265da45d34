import * as z from 'zod';

import { DEFAULT_GOOGLE_REDIRECT_URI, FORM_BOUNDS, LICENSE_KEY, REMINDER_FREQUENCY } from '../constants';
import { MESSAGES } from '../messages';
import { EmailAddress, EntityId, IsoTimestamp } from './common';

/** Google OAuth client of a lawyer; stored in Secrets Manager, never in the table. */
export const GoogleCredentials = z.object({
  clientId: z.string().max(512).default(''),
  clientSecret: z.string().max(512).default(''),
  redirectUri: z.string().max(2048).default(DEFAULT_GOOGLE_REDIRECT_URI),
});
export type GoogleCredentials = z.infer<typeof GoogleCredentials>;

/** The secret part of a lawyer, revealed to an admin on request only. */
export const LawyerSecrets = z.object({
  googlePassword: z.string().nullable(),
  googleCredentials: GoogleCredentials.nullable(),
});
export type LawyerSecrets = z.infer<typeof LawyerSecrets>;

/** A lawyer's licence key in clear, revealed to an admin on request only (behind the step-up). */
export const RevealedLicenseKey = z.object({ licenseKey: z.string().nullable() });
export type RevealedLicenseKey = z.infer<typeof RevealedLicenseKey>;

/**
 * A lawyer or notary profile as the API returns it (client-side names of spec §3), without its
 * secrets: it says whether they are set so that badges can show 'Configuré' / 'Non configuré'.
 * `licenseKey` is masked (`NOTARY-••••1234`) everywhere but in the member's own profile.
 */
export const Lawyer = z.object({
  id: EntityId,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  mainEmail: z.string(),
  emailSignature: z.string().nullable(),
  reminderFrequency: z.number().int(),
  phoneNumber: z.string().nullable(),
  officeName: z.string().nullable(),
  licenseKey: z.string().nullable(),
  hasGooglePassword: z.boolean(),
  hasGoogleCredentials: z.boolean(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  /** When SES reported his licence e-mail bounced or complained of ('E-mail non délivré'); null: none. */
  licenseEmailUndeliveredAt: IsoTimestamp.nullable().default(null),
});
export type Lawyer = z.infer<typeof Lawyer>;

const optionalText = (max: number) => z.string().trim().max(max).optional().nullable();

/**
 * A lawyer as saved by an admin or by the lawyer himself. Normalisation of spec §5: Google password
 * trimmed and null when empty; main e-mail defaults to the e-mail; reminder frequency to 7; empty
 * signature, phone or office name become null.
 */
export const LawyerInput = z
  .object({
    firstName: z.string().trim().min(FORM_BOUNDS.personNameMin, MESSAGES.validation.firstName).max(100),
    lastName: z.string().trim().min(FORM_BOUNDS.personNameMin, MESSAGES.validation.lastName).max(100),
    email: EmailAddress(MESSAGES.validation.email),
    mainEmail: z
      .union([EmailAddress(MESSAGES.validation.mainEmail), z.literal('')], MESSAGES.validation.mainEmail)
      .optional()
      .nullable(),
    phoneNumber: optionalText(40).refine(
      (value) => !value || value.length >= FORM_BOUNDS.phoneMin,
      MESSAGES.validation.phoneNumber,
    ),
    officeName: optionalText(200).refine(
      (value) => !value || value.length >= FORM_BOUNDS.officeNameMin,
      MESSAGES.validation.officeName,
    ),
    googlePassword: optionalText(512),
    emailSignature: optionalText(5000),
    reminderFrequency: z.coerce.number().int().min(REMINDER_FREQUENCY.min).max(365).optional().nullable(),
    licenseKey: z
      .string()
      .trim()
      .min(LICENSE_KEY.minLength)
      .max(LICENSE_KEY.maxLength)
      // A key as lists show it, masked, sent back as it was read: never a key of its own.
      .refine((key) => !key.includes('•'), MESSAGES.lawyerSave.maskedLicenseKey)
      .optional()
      .nullable(),
    googleCredentials: GoogleCredentials.partial().optional().nullable(),
  })
  .transform((input) => ({
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    mainEmail: input.mainEmail || input.email,
    phoneNumber: input.phoneNumber || null,
    officeName: input.officeName || null,
    googlePassword: input.googlePassword || null,
    emailSignature: input.emailSignature || null,
    reminderFrequency: input.reminderFrequency ?? REMINDER_FREQUENCY.default,
    licenseKey: input.licenseKey || null,
    googleCredentials: input.googleCredentials
      ? {
          clientId: input.googleCredentials.clientId?.trim() ?? '',
          clientSecret: input.googleCredentials.clientSecret?.trim() ?? '',
          redirectUri: input.googleCredentials.redirectUri?.trim() || DEFAULT_GOOGLE_REDIRECT_URI,
        }
      : null,
  }));
export type LawyerInput = z.input<typeof LawyerInput>;
export type NormalizedLawyerInput = z.output<typeof LawyerInput>;
