import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dueAtOfSortKey,
  dueBound,
  dueIndexKeys,
  dueShardOf,
  scheduleUnchangedCondition,
} from '../../../../functions/data/table/due-index';
import {
  claimSlots,
  dispatchDelaySeconds,
  dispatchIdOf,
  dueAtOf,
  intervalMinutesOf,
  NEVER_RAN,
  type SchedulableWorkflow,
  withFirstDue,
} from '../../../../functions/domain/scheduling/due-slots';
import { DUE_SHARDS } from '../../../../functions/domain/scheduling/scheduling-settings';

const NOW = new Date('2026-11-22T10:00:00.000Z');

function workflow(overrides: Partial<SchedulableWorkflow> = {}): SchedulableWorkflow {
  return {
    id: '6f1c1f0e-8f43-4a47-9a55-2f4f3c1d8e01',
    type: 'client_management',
    active: true,
    cronEnabled: true,
    cronInterval: 2,
    cronLastRun: null,
    cronNextRun: null,
    ...overrides,
  };
}

describe('dueIndexKeys', () => {
  it('indexes an active, scheduled workflow', () => {
    const keys = dueIndexKeys(workflow());

    expect(keys?.DuePK).toMatch(/^DUE#([0-9]|[1-5][0-9]|6[0-3])$/);
    expect(keys?.DueSK).toBe(`${NEVER_RAN}#${workflow().id}`);
  });

  it.each([
    ['inactive', { active: false }],
    ['not scheduled', { cronEnabled: false }],
    ['neither', { active: false, cronEnabled: false }],
  ])('leaves an %s workflow out of the index', (_label, overrides) => {
    expect(dueIndexKeys(workflow(overrides))).toBeNull();
  });

  it('keeps a workflow in the same shard whatever its state', () => {
    const first = dueIndexKeys(workflow())?.DuePK;
    const later = dueIndexKeys(workflow({ cronNextRun: '2026-11-22T11:00:00.000Z' }))?.DuePK;

    expect(later).toBe(first);
  });
});

describe('dueShardOf', () => {
  it('spreads ids over every shard', () => {
    const shards = new Set(Array.from({ length: 4_000 }, (_, index) => dueShardOf(`workflow-${index}`)));

    expect(shards.size).toBe(DUE_SHARDS);
  });

  it('is stable for one id', () => {
    expect(dueShardOf('abc')).toBe(dueShardOf('abc'));
  });
});

describe('dueAtOf', () => {
  it('is due at once when it never ran', () => {
    expect(dueAtOf(workflow())).toBe(NEVER_RAN);
  });

  it('counts the interval from the last run when no next run was claimed', () => {
    expect(dueAtOf(workflow({ cronLastRun: '2026-11-22T09:59:00.000Z', cronInterval: 2 }))).toBe(
      '2026-11-22T10:01:00.000Z',
    );
  });

  it('follows the claimed next run, so that rewriting an item never makes a dispatched slot due again', () => {
    const claimed = workflow({
      cronLastRun: '2026-11-22T09:58:00.000Z',
      cronNextRun: '2026-11-22T10:02:00.000Z',
    });

    expect(dueAtOf(claimed)).toBe('2026-11-22T10:02:00.000Z');
  });

  it('uses the interval of the type when the workflow has none (spec §9)', () => {
    expect(intervalMinutesOf({ type: 'client_reminder', cronInterval: null })).toBe(1);
    expect(intervalMinutesOf({ type: 'client_management', cronInterval: null })).toBe(2);
    expect(intervalMinutesOf({ type: 'unknown', cronInterval: null })).toBe(2);
    expect(intervalMinutesOf({ type: 'client_reminder', cronInterval: 15 })).toBe(15);
  });
});

describe('claimSlots', () => {
  const horizon = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

  it('takes a never-run workflow now, then every interval up to the horizon', () => {
    expect(claimSlots(NEVER_RAN, 2, NOW, horizon(5))).toEqual({
      dueAts: ['2026-11-22T10:00:00.000Z', '2026-11-22T10:02:00.000Z', '2026-11-22T10:04:00.000Z'],
      nextRun: '2026-11-22T10:06:00.000Z',
    });
  });

  it('keeps the grid of a workflow on time, whatever second it was scheduled at', () => {
    expect(claimSlots('2026-11-22T10:00:37.000Z', 1, NOW, horizon(2.25))).toEqual({
      dueAts: ['2026-11-22T10:00:37.000Z', '2026-11-22T10:01:37.000Z'],
      nextRun: '2026-11-22T10:02:37.000Z',
    });
  });

  it('always takes the slot it was read at, even beyond the horizon', () => {
    expect(claimSlots('2026-11-22T10:30:00.000Z', 60, NOW, horizon(10))).toEqual({
      dueAts: ['2026-11-22T10:30:00.000Z'],
      nextRun: '2026-11-22T11:30:00.000Z',
    });
  });

  it('runs a workflow that missed many slots once, then every interval from now (no burst)', () => {
    expect(claimSlots('2026-11-22T07:00:00.000Z', 2, NOW, horizon(3))).toEqual({
      dueAts: ['2026-11-22T07:00:00.000Z', '2026-11-22T10:02:00.000Z'],
      nextRun: '2026-11-22T10:04:00.000Z',
    });
  });

  it('takes every slot of the grid up to the horizon once, in order, and leaves the next one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -30_000, max: 300_000 }),
        fc.constantFrom(1, 2, 5, 60),
        fc.integer({ min: 0, max: 15 * 60_000 }),
        (offsetMs, interval, horizonMs) => {
          const due = new Date(NOW.getTime() + offsetMs).toISOString();
          const end = new Date(NOW.getTime() + horizonMs);
          const { dueAts, nextRun } = claimSlots(due, interval, NOW, end);
          const times = [...dueAts, nextRun].map(Date.parse);
          expect(dueAts[0]).toBe(due);
          for (let index = 1; index < times.length; index++) {
            expect((times[index] as number) - (times[index - 1] as number)).toBe(interval * 60_000);
          }
          expect(dueAts.slice(1).every((at) => Date.parse(at) <= end.getTime())).toBe(true);
          expect(Date.parse(nextRun)).toBeGreaterThan(Math.max(end.getTime(), Date.parse(due)));
        },
      ),
    );
  });
});

describe('withFirstDue', () => {
  const at = NOW.toISOString();

  it('makes a workflow scheduled for the first time due from the write', () => {
    expect(withFirstDue(workflow(), at).cronNextRun).toBe(at);
  });

  it('makes a workflow whose next run has passed (switched off for a while) due from the write', () => {
    const stale = workflow({
      cronNextRun: '2026-11-22T09:30:00.000Z',
      cronLastRun: '2026-11-22T09:28:00.000Z',
    });
    expect(withFirstDue(stale, at).cronNextRun).toBe(at);
  });

  it('keeps a next run still ahead (switched off and on within minutes): its queued runs go on', () => {
    const ahead = workflow({ cronNextRun: '2026-11-22T10:06:00.000Z' });
    expect(withFirstDue(ahead, at).cronNextRun).toBe('2026-11-22T10:06:00.000Z');
  });

  it('leaves an unscheduled workflow as it is', () => {
    expect(withFirstDue(workflow({ cronEnabled: false }), at).cronNextRun).toBeNull();
  });
});

describe('dispatchDelaySeconds', () => {
  it.each([
    ['2026-11-22T09:00:00.000Z', 0],
    ['2026-11-22T10:00:00.000Z', 0],
    ['2026-11-22T10:00:00.001Z', 1],
    ['2026-11-22T10:00:30.000Z', 30],
    ['2026-11-22T10:00:59.500Z', 60],
    ['2026-11-22T12:00:00.000Z', 900],
  ])('delays a run due at %s by %i s', (dueAt, seconds) => {
    expect(dispatchDelaySeconds(dueAt, NOW)).toBe(seconds);
  });
});

describe('sort keys', () => {
  it('orders due times and keeps every key of a time under its bound', () => {
    const bound = dueBound(new Date('2026-11-22T10:01:00.000Z'));
    const keys = [
      `${NEVER_RAN}#b`,
      '2026-11-22T10:00:59.999Z#ffffffff-ffff-ffff-ffff-ffffffffffff',
      '2026-11-22T10:01:00.000Z#ffffffff-ffff-ffff-ffff-ffffffffffff',
    ];

    for (const key of keys) expect(key <= bound).toBe(true);
    expect('2026-11-22T10:01:00.001Z#0' <= bound).toBe(false);
  });

  it('reads the due time back out of a sort key', () => {
    expect(dueAtOfSortKey('2026-11-22T10:01:00.000Z#id')).toBe('2026-11-22T10:01:00.000Z');
  });

  it('names a dispatch by workflow and due time', () => {
    expect(dispatchIdOf('w1', '2026-11-22T10:01:00.000Z')).toBe('w1:2026-11-22T10:01:00.000Z');
  });
});

describe('scheduleUnchangedCondition', () => {
  it('compares the claimed next run when there is one', () => {
    expect(scheduleUnchangedCondition({ cronNextRun: '2026-11-22T10:02:00.000Z' })).toEqual({
      expression: 'cronNextRun = :readNextRun',
      values: { ':readNextRun': '2026-11-22T10:02:00.000Z' },
    });
  });

  it('requires no next run when none was read', () => {
    expect(scheduleUnchangedCondition({ cronNextRun: null }).expression).toContain('attribute_not_exists');
  });
});
