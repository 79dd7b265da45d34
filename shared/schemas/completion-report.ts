import * as z from 'zod';

import { REPORT_FIELD_MESSAGES } from '../report-messages';
import { IsoTimestamp } from './common';

/** The longest summary a report may carry (characters). */
export const REPORT_SUMMARY_MAX = 500;
/** The longest error text a report may carry (characters). */
export const REPORT_ERROR_MAX = 2_000;

const refused = REPORT_FIELD_MESSAGES;

/**
 * What a workflow posts to its run's `report.url` at its end (POST /api/reports/{token}): how it
 * ended, what it did in a sentence, optionally how many items and the error. `runId`, when sent,
 * must be the run's own (a report copied from another run's body is refused). Unknown fields are
 * ignored, so a node sending a little more still reports.
 */
export const CompletionReportRequest = z.object({
  status: z.enum(['success', 'failure'], { error: refused.status }),
  summary: z
    .string({ error: refused.summary })
    .trim()
    .min(1, { error: refused.summary })
    .max(REPORT_SUMMARY_MAX, { error: refused.summary }),
  items: z
    .number({ error: refused.items })
    .int({ error: refused.items })
    .min(0, { error: refused.items })
    .max(1_000_000_000, { error: refused.items })
    .optional(),
  error: z.string({ error: refused.error }).trim().max(REPORT_ERROR_MAX, { error: refused.error }).optional(),
  runId: z.string({ error: refused.runId }).max(200, { error: refused.runId }).optional(),
});
export type CompletionReportRequest = z.input<typeof CompletionReportRequest>;

/** The reply to an accepted report. */
export const CompletionReportReply = z.object({
  accepted: z.literal(true),
  runId: z.string(),
  message: z.string(),
});
export type CompletionReportReply = z.infer<typeof CompletionReportReply>;

/** What every run's webhook body carries so that the workflow can report its end. */
export const ReportLink = z.object({
  /** Single use, unguessable, valid 24 hours: POST the report there. */
  url: z.string(),
  /** The run's id: the same as the `webhook-id` header, and shown in the history. */
  runId: z.string(),
});
export type ReportLink = z.infer<typeof ReportLink>;

/**
 * The report of a run as the history shows it beside the delivery:
 * - 'success': 'Terminé : <summary>';
 * - 'failure': 'Échec signalé par le workflow : <error, else summary>';
 * - 'missing': 'Sans compte rendu': the workflow usually reports and this run's report is later
 *   than its expected time (docs/n8n-completion-report.md says how both are worked out).
 * A run with no report that is not late, or of a workflow that does not report, has none.
 */
export const RunReport = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('success'),
    summary: z.string(),
    items: z.number().int().nullable(),
    reportedAt: IsoTimestamp,
  }),
  z.object({
    state: z.literal('failure'),
    summary: z.string(),
    items: z.number().int().nullable(),
    error: z.string().nullable(),
    reportedAt: IsoTimestamp,
  }),
  z.object({
    state: z.literal('missing'),
    /** When the report was due: the delivery's start plus the workflow's expected time. */
    expectedBy: IsoTimestamp,
  }),
]);
export type RunReport = z.infer<typeof RunReport>;
