import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { generateWebhookSecret } from '../../../../functions/adapters/scheduling/webhook-signature';
import { reportingHabitOf } from '../../../../functions/domain/health/report-health';
import {
  expectedReportTimeMs,
  REPORTING_HABIT,
} from '../../../../functions/domain/scheduling/completion-reports';
import {
  REPORT_LINK_TTL_SECONDS,
  reportLinkOf,
  verifyReportToken,
} from '../../../../functions/domain/scheduling/report-links';
import { CompletionReportRequest } from '../../../../shared/schemas/completion-report';

const secret = generateWebhookSecret();
const run = {
  workflowId: '6f1c8a2e-3b4d-4c5e-8f9a-0b1c2d3e4f50',
  runId: '6f1c8a2e-3b4d-4c5e-8f9a-0b1c2d3e4f50:2026-11-22T10:00:00.000Z',
  trigger: 'schedule' as const,
  startedAt: '2026-11-22T10:00:01.250Z',
};
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('report links', () => {
  it('name the run, expire 24 hours after the call, and live on the configured origin only', () => {
    const link = reportLinkOf(run, { webhookSecret: secret, origin: 'https://app.cabinet.fr/' });
    expect(link.runId).toBe(run.runId);
    expect(link.url.startsWith('https://app.cabinet.fr/api/reports/')).toBe(true);
    expect(verifyReportToken(tokenOf(link.url), secret)).toEqual({
      ...run,
      expiresAt: Date.parse(run.startedAt) / 1000 - 0.25 + REPORT_LINK_TTL_SECONDS,
    });
  });

  it('are refused when signed with another secret, or altered anywhere', () => {
    const token = tokenOf(reportLinkOf(run, { webhookSecret: secret, origin: 'https://a.fr' }).url);
    expect(verifyReportToken(token, generateWebhookSecret())).toBeNull();
    fc.assert(
      fc.property(fc.nat(token.length - 1), fc.constantFrom(...'AbZ09-_.'), (index, replacement) => {
        const altered = token.slice(0, index) + replacement + token.slice(index + 1);
        fc.pre(altered !== token);
        expect(verifyReportToken(altered, secret)).toBeNull();
      }),
    );
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (any) => verifyReportToken(any, secret) === null));
  });
});

describe('the report body', () => {
  it('takes a status, a summary of 1 to 500 characters and optional items, error and run id', () => {
    expect(
      CompletionReportRequest.safeParse({ status: 'success', summary: '3 e-mails classés' }).success,
    ).toBe(true);
    fc.assert(
      fc.property(
        fc.record(
          {
            status: fc.oneof(fc.constantFrom('success', 'failure'), fc.string()),
            summary: fc.oneof(fc.string({ maxLength: 600 }), fc.integer()),
            items: fc.oneof(fc.integer({ min: -5, max: 10 }), fc.double(), fc.string()),
            error: fc.oneof(fc.string({ maxLength: 2100 }), fc.constant(null)),
          },
          { requiredKeys: [] },
        ),
        (body) => {
          const parsed = CompletionReportRequest.safeParse(body);
          const valid =
            (body.status === 'success' || body.status === 'failure') &&
            typeof body.summary === 'string' &&
            body.summary.trim().length >= 1 &&
            body.summary.trim().length <= 500 &&
            (body.items === undefined ||
              (Number.isInteger(body.items) &&
                (body.items as number) >= 0 &&
                (body.items as number) <= 1_000_000_000)) &&
            (body.error === undefined ||
              (typeof body.error === 'string' && body.error.trim().length <= 2000));
          expect(parsed.success).toBe(valid);
        },
      ),
    );
  });
});

describe("a workflow's expected report time", () => {
  const hour = (counts: Record<string, number>) => [{ hour: '2026-11-22T10', counts }];
  const habit = (counts: Record<string, number>) => reportingHabitOf(hour(counts));

  it('exists only for a workflow that reported at least 3 runs and half of its delivered ones', () => {
    expect(expectedReportTimeMs(habit({ succeeded: 10, reported: 2, reportDelay0: 2 }))).toBeNull();
    expect(expectedReportTimeMs(habit({ succeeded: 10, reported: 4, reportDelay0: 4 }))).toBeNull();
    expect(expectedReportTimeMs(habit({ succeeded: 10, reported: 5, reportDelay0: 5 }))).toBe(
      REPORTING_HABIT.minExpectedMs,
    );
  });

  it('is twice the 95th percentile of its delays, between 2 minutes and 24 hours', () => {
    // 19 reports within 5 minutes, 1 within 10: p95 is 5 minutes, expected 10.
    const counts = { succeeded: 20, reported: 20, reportDelay5: 19, reportDelay6: 1 };
    expect(reportingHabitOf(hour(counts))).toEqual({ delivered: 20, reported: 20, p95DelayMs: 300_000 });
    expect(expectedReportTimeMs(habit(counts))).toBe(600_000);
    expect(expectedReportTimeMs(habit({ succeeded: 3, reported: 3, reportDelay12: 3 }))).toBe(
      REPORTING_HABIT.maxExpectedMs,
    );
  });
});
