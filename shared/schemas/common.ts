import { z } from 'zod';

import { MESSAGES } from '../messages';
import { frenchIssueMessage } from './french-errors';

// Default validation messages in French, naming the field, for the rules without a message of
// their own. No zod locale is imported: every locale would come into every bundle.
z.config({ customError: frenchIssueMessage });

/** The one shape of every error reply. */
export const ErrorReply = z.object({ error: z.string() });
export type ErrorReply = z.infer<typeof ErrorReply>;

/** An ISO-8601 timestamp as the server writes them. */
export const IsoTimestamp = z.iso.datetime({ offset: true });

/** An e-mail address, trimmed and lower-cased so that one address has one spelling. */
export const EmailAddress = (message: string = MESSAGES.validation.email) =>
  z
    .string(message)
    .trim()
    .max(254, message)
    .pipe(z.email(message))
    .transform((value) => value.toLowerCase());

/** An identifier the server generated (UUID). */
export const EntityId = z.uuid();

/** An http(s) URL, as a webhook address must be. */
export const HttpUrl = (message: string = MESSAGES.execution.invalidWebhookUrl) =>
  z
    .string()
    .trim()
    .max(2048, message)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, message);

/** A reply that only says whether the call worked. */
export const SuccessReply = z.object({ success: z.boolean(), error: z.string().optional() });
export type SuccessReply = z.infer<typeof SuccessReply>;
