import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  DURATION_BOUNDS_MS,
  deliveryHourIncrements,
  deliveryHoursOf,
  healthStateOf,
  LAG_BOUNDS_MS,
  p95Of,
  pauseReasonOf,
  windowOf,
  workflowHourIncrements,
} from '../../../../functions/domain/health/automation-health';
import type { HourCounters } from '../../../../functions/domain/health/ports';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';

const summary = (overrides: Partial<Parameters<typeof healthStateOf>[0]> = {}) => ({
  consecutiveFailures: 0,
  pausedAt: null,
  lastSuccessRetried: false,
  ...overrides,
});

describe('the health state', () => {
  it("is 'En bonne santé' without runs, or after a success at the first attempt", () => {
    expect(healthStateOf(summary(), true)).toBe('healthy');
  });

  it("is 'Dégradée' after one failure, or a success that needed retries", () => {
    expect(healthStateOf(summary({ consecutiveFailures: 1 }), true)).toBe('degraded');
    expect(healthStateOf(summary({ lastSuccessRetried: true }), true)).toBe('degraded');
  });

  it("is 'En échec' from two failures in a row", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000 }), fc.boolean(), (failures, retried) => {
        expect(
          healthStateOf(summary({ consecutiveFailures: failures, lastSuccessRetried: retried }), true),
        ).toBe('failing');
      }),
    );
  });

  it("is 'Suspendue' while the pause stands and scheduling is off, whatever the counters", () => {
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), (failures, retried) => {
        const paused = summary({ consecutiveFailures: failures, lastSuccessRetried: retried, pausedAt: 'x' });
        expect(healthStateOf(paused, false)).toBe('paused');
        // Scheduling back on ('Reprendre', or the switch): no longer paused.
        expect(healthStateOf(paused, true)).not.toBe('paused');
      }),
    );
  });
});

describe('the histograms', () => {
  it('puts a value in the first bucket whose bound it does not pass, past the last in one more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (value) => {
        const index = bucketOf(value, DURATION_BOUNDS_MS);
        if (index < DURATION_BOUNDS_MS.length) {
          expect(value).toBeLessThanOrEqual(DURATION_BOUNDS_MS[index] as number);
          if (index > 0) expect(value).toBeGreaterThan(DURATION_BOUNDS_MS[index - 1] as number);
        } else {
          expect(value).toBeGreaterThan(DURATION_BOUNDS_MS.at(-1) as number);
        }
      }),
    );
  });

  it('gives as p95 the bound of the bucket holding the 95th percentile, never below it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12_000 }), { minLength: 1, maxLength: 300 }),
        (values) => {
          const counts = Array.from({ length: DURATION_BOUNDS_MS.length + 1 }, () => 0);
          for (const value of values) {
            const index = bucketOf(value, DURATION_BOUNDS_MS);
            counts[index] = (counts[index] ?? 0) + 1;
          }
          const p95 = p95Of(counts, DURATION_BOUNDS_MS) as number;
          const sorted = [...values].sort((a, b) => a - b);
          const exact = sorted[Math.ceil(values.length * 0.95) - 1] as number;
          // The bucket's bound: at least the exact percentile (capped at the last bound).
          expect(p95).toBeGreaterThanOrEqual(Math.min(exact, DURATION_BOUNDS_MS.at(-1) as number));
          expect(DURATION_BOUNDS_MS).toContain(p95);
        },
      ),
    );
    expect(p95Of([0, 0, 0], [1, 2])).toBeNull();
  });
});

describe('the counters of a call', () => {
  const call = {
    trigger: 'schedule' as const,
    outcome: 'retried' as const,
    attempt: 1,
    startedAt: '2026-11-23T10:00:03.000Z',
    durationMs: 300,
    dueAt: '2026-11-23T10:00:00.000Z',
    httpStatus: 500,
    message: 'x',
  };

  it('count its outcome and its duration bucket for the workflow', () => {
    expect(workflowHourIncrements(call)).toEqual({ retried: 1, duration2: 1 });
  });

  it('count the lag of a first scheduled attempt only', () => {
    expect(deliveryHourIncrements(call)).toEqual({ retried: 1, [`lag${bucketOf(3_000, LAG_BOUNDS_MS)}`]: 1 });
    expect(deliveryHourIncrements({ ...call, attempt: 2 })).toEqual({ retried: 1 });
    expect(deliveryHourIncrements({ ...call, trigger: 'manual', dueAt: null })).toEqual({ retried: 1 });
  });
});

describe('the windows', () => {
  it('count ended runs only (a retried attempt is not a run) and their success rate', () => {
    const hours: HourCounters[] = [
      { hour: '2026-11-20T10', counts: { succeeded: 1 } },
      {
        hour: '2026-11-23T09',
        counts: { succeeded: 3, retried: 4, deadLettered: 1, failed: 0, duration0: 8 },
      },
    ];
    expect(windowOf(hours, '2026-11-22T10')).toEqual({
      runs: 4,
      succeeded: 3,
      processingFailed: 0,
      successRate: 0.75,
      p95DurationMs: 100,
    });
    expect(windowOf(hours, '2026-11-16T10').runs).toBe(5);
    expect(windowOf([], '2026-11-16T10')).toEqual({
      runs: 0,
      succeeded: 0,
      processingFailed: 0,
      successRate: null,
      p95DurationMs: null,
    });
  });

  it('count a delivered run whose workflow reported a failure as a failure, apart from delivery failures', () => {
    const hours: HourCounters[] = [
      {
        hour: '2026-11-23T09',
        counts: { succeeded: 4, failed: 1, reported: 3, reportedFailed: 2, duration0: 5 },
      },
    ];
    expect(windowOf(hours, '2026-11-22T10')).toMatchObject({
      runs: 5,
      succeeded: 2,
      processingFailed: 2,
      successRate: 0.4,
    });
    const [hour] = deliveryHoursOf(hours, new Date('2026-11-23T09:10:00.000Z')).slice(-1);
    expect(hour).toMatchObject({ succeeded: 4, failed: 1, reportedFailed: 2 });
  });

  it('show 24 hours on the dashboard, idle ones at zero, oldest first', () => {
    const now = new Date('2026-11-23T10:30:00.000Z');
    const hours = deliveryHoursOf([{ hour: '2026-11-23T10', counts: { failed: 2, lag1: 1 } }], now);
    expect(hours).toHaveLength(24);
    expect(hours[0]?.hour).toBe('2026-11-22T11:00:00.000Z');
    expect(hours[23]).toEqual({
      hour: '2026-11-23T10:00:00.000Z',
      succeeded: 0,
      retried: 0,
      failed: 2,
      deadLettered: 0,
      reportedFailed: 0,
      lagP95Ms: 2_000,
    });
  });
});

describe('the pause reason', () => {
  it('says how many failures and the last message, and after a 404 that n8n is probably inactive', () => {
    expect(pauseReasonOf(5, 'Erreur serveur', 500)).toBe(
      'Suspendue après 5 échecs consécutifs — dernier message : Erreur serveur',
    );
    expect(pauseReasonOf(5, 'Webhook introuvable', 404)).toBe(
      `Suspendue après 5 échecs consécutifs — dernier message : Webhook introuvable. ${HEALTH_MESSAGES.inactiveHint}`,
    );
  });
});
