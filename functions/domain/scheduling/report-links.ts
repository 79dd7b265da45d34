import { createHmac, timingSafeEqual } from 'node:crypto';

import type { ReportLink } from '../../../shared/schemas/completion-report';
import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';

/** How long a run's report link is accepted: 24 hours after the call that carried it. */
export const REPORT_LINK_TTL_SECONDS = 24 * 60 * 60;

/** What a report link vouches for: the run, its workflow, and when its delivery started. */
export interface ReportedRun {
  readonly workflowId: string;
  /** The id the report is recorded under (`report.runId`). */
  readonly runId: string;
  /** What started the run, as the health counts it (a replay counts as a replay). */
  readonly trigger: ExecutionTrigger;
  /** When the call that carried the link started (ISO). */
  readonly startedAt: string;
  /** Unix seconds after which the link is refused. */
  readonly expiresAt: number;
}

const TRIGGERS: readonly ExecutionTrigger[] = [
  'schedule',
  'manual',
  'manual_force',
  'redrive',
  'test',
  'replay',
];

/**
 * The key report links are signed with, derived from the webhook signing secret with a label of its
 * own: no other secret to deploy, and a link can never pass for a webhook signature or the reverse.
 * Rotating the webhook secret makes the links of the last 24 hours refused (documented).
 */
function linkKey(webhookSecret: string): Buffer {
  return createHmac('sha256', webhookSecret).update('completion-report-link/v1').digest();
}

const mac = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');

/**
 * The link of a run: `<origin>/api/reports/<token>`, the token being the run's description and
 * 128 bits of HMAC over it. Nothing is stored when a link is made (the worker's calls stay as they
 * are): the token alone says which run it is for and until when, and only the server can make one.
 * It is single-use because the report it brings is recorded once per run.
 */
export function reportLinkOf(
  run: Omit<ReportedRun, 'expiresAt'>,
  settings: { readonly webhookSecret: string; readonly origin: string },
): ReportLink {
  const expiresAt = Math.floor(Date.parse(run.startedAt) / 1000) + REPORT_LINK_TTL_SECONDS;
  const payload = Buffer.from(
    JSON.stringify({ w: run.workflowId, r: run.runId, t: run.trigger, s: run.startedAt, e: expiresAt }),
  ).toString('base64url');
  const token = `${payload}.${mac(linkKey(settings.webhookSecret), payload)}`;
  return { url: `${settings.origin.replace(/\/+$/, '')}/api/reports/${token}`, runId: run.runId };
}

/** Makes the report link of each call (its run, when it started). */
export interface ReportLinks {
  linkOf(run: Omit<ReportedRun, 'expiresAt'>): Promise<ReportLink>;
}

/** Report links signed with the world's webhook secret, on its public origin. */
export function signedReportLinks(settings: {
  readonly webhookSigningSecret: () => Promise<string>;
  readonly origin: () => string;
}): ReportLinks {
  return {
    linkOf: async (run) =>
      reportLinkOf(run, { webhookSecret: await settings.webhookSigningSecret(), origin: settings.origin() }),
  };
}

/** The run a token vouches for, or null when the server did not make it (whatever its age). */
export function verifyReportToken(token: string, webhookSecret: string): ReportedRun | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0 || token.length > 1_000) return null;
  const expected = Buffer.from(mac(linkKey(webhookSecret), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const run = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { w, r, t, s, e } = run;
    if (typeof w !== 'string' || typeof r !== 'string' || typeof s !== 'string' || typeof e !== 'number')
      return null;
    if (!TRIGGERS.includes(t as ExecutionTrigger) || Number.isNaN(Date.parse(s))) return null;
    return { workflowId: w, runId: r, trigger: t as ExecutionTrigger, startedAt: s, expiresAt: e };
  } catch {
    return null;
  }
}
