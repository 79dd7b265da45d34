import { describe, expect, it } from 'vitest';
import {
  dueAtOfSortKey,
  dueBound,
  dueIndexKeys,
  dueShardOf,
  scheduleUnchangedCondition,
} from '../../../../functions/data/table/due-index';
import {
  claimSlot,
  dispatchDelaySeconds,
  dispatchIdOf,
  dueAtOf,
  intervalMinutesOf,
  NEVER_RAN,
  type SchedulableWorkflow,
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

describe('claimSlot', () => {
  it('runs a never-run workflow now and next after one interval', () => {
    expect(claimSlot(NEVER_RAN, 2, NOW)).toEqual({
      dueAt: NOW.toISOString(),
      nextRun: '2026-11-22T10:02:00.000Z',
    });
  });

  it('keeps the grid of a workflow on time', () => {
    expect(claimSlot('2026-11-22T09:59:30.000Z', 1, NOW)).toEqual({
      dueAt: '2026-11-22T09:59:30.000Z',
      nextRun: '2026-11-22T10:00:30.000Z',
    });
  });

  it('claims a slot falling due within the look-ahead at its own time', () => {
    expect(claimSlot('2026-11-22T10:00:40.000Z', 1, NOW)).toEqual({
      dueAt: '2026-11-22T10:00:40.000Z',
      nextRun: '2026-11-22T10:01:40.000Z',
    });
  });

  it('runs a workflow that missed many slots once, then every interval from now (no burst)', () => {
    expect(claimSlot('2026-11-22T07:00:00.000Z', 2, NOW)).toEqual({
      dueAt: '2026-11-22T07:00:00.000Z',
      nextRun: '2026-11-22T10:02:00.000Z',
    });
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
