import * as z from 'zod';

import { LIST_PAGE, SEARCH_QUERY_MAX_LENGTH } from '../constants';
import { MESSAGES } from '../messages';
import { frenchIssueMessage } from './french-errors';

// Default validation messages in French, naming the field, for the rules without a message of
// their own. No zod locale is imported: every locale would come into every bundle.
z.config({ customError: frenchIssueMessage });

/** The one shape of every error reply. */
export const ErrorReply = z.object({
  error: z.string(),
  /** Names the few errors a client acts on (the second factor asked again before a sensitive action). */
  code: z.string().optional(),
  /**
   * A 409 of 'Nouvel avocat' (a save in create mode): the lawyer who already has that e-mail or
   * licence key, so that the admin is asked before updating him.
   */
  existingLawyer: z
    .object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() })
    .optional(),
});
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

/**
 * The query of every list call: a page size (LIST_PAGE) and the opaque cursor the previous page
 * answered with. The cursor is checked by the server against the list it belongs to.
 */
export const PageQuery = z.object({
  limit: z.coerce
    .number(MESSAGES.request.invalidLimit)
    .int(MESSAGES.request.invalidLimit)
    .min(1, MESSAGES.request.invalidLimit)
    .max(LIST_PAGE.max, MESSAGES.request.invalidLimit)
    .default(LIST_PAGE.default),
  cursor: z
    .string()
    .min(1, MESSAGES.request.invalidCursor)
    .max(2000, MESSAGES.request.invalidCursor)
    .optional(),
});
export type PageQuery = z.input<typeof PageQuery>;

/**
 * The cursor of the next page, null on the last one. The server always sends it; a reply without
 * it (an older server) reads as the last page.
 */
export const NextCursor = z.string().nullable().default(null);

/**
 * The search of a list call (`q`): any text up to `SEARCH_QUERY_MAX_LENGTH` characters, searched
 * by the server without case or accents; blank or absent, the whole list.
 */
export const SearchParam = z.string().max(SEARCH_QUERY_MAX_LENGTH, MESSAGES.request.searchTooLong).optional();

/** The query of a searchable list: a page, and the search. */
export const SearchPageQuery = PageQuery.extend({ q: SearchParam });
export type SearchPageQuery = z.input<typeof SearchPageQuery>;
