import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { startMinuteTimer } from '../../../../../lib/local/queue/minute-timer';
import { MemoryLogger } from '../../../../support/app';

describe('startMinuteTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T10:00:20.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks shortly after start, then at the start of every minute', async () => {
    const ticks: string[] = [];
    const timer = startMinuteTimer(async () => {
      ticks.push(new Date().toISOString());
    }, new MemoryLogger());

    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(38_000);
    await vi.advanceTimersByTimeAsync(60_000);
    await timer.stop();

    expect(ticks).toEqual([
      '2026-11-22T10:00:22.000Z',
      '2026-11-22T10:01:00.000Z',
      '2026-11-22T10:02:00.000Z',
    ]);
  });

  it('leaves out the start-up tick when the first minute tick is seconds away, so the two do not meet', async () => {
    vi.setSystemTime(new Date('2026-11-22T10:00:49.000Z'));
    const ticks: string[] = [];
    const timer = startMinuteTimer(async () => {
      ticks.push(new Date().toISOString());
    }, new MemoryLogger());

    await vi.advanceTimersByTimeAsync(11_000);
    await vi.advanceTimersByTimeAsync(60_000);
    await timer.stop();

    expect(ticks).toEqual(['2026-11-22T10:01:00.000Z', '2026-11-22T10:02:00.000Z']);
  });

  it('does not start a tick while the previous one still runs', async () => {
    let started = 0;
    let finish: () => void = () => undefined;
    const timer = startMinuteTimer(
      () =>
        new Promise<void>((resolve) => {
          started += 1;
          finish = resolve;
        }),
      new MemoryLogger(),
    );

    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(started).toBe(1);
    finish();
    await timer.stop();
  });

  it('logs a failed tick and goes on', async () => {
    const logger = new MemoryLogger();
    let calls = 0;
    const timer = startMinuteTimer(async () => {
      calls += 1;
      throw new Error('boom');
    }, logger);

    await vi.advanceTimersByTimeAsync(40_000);
    await timer.stop();

    expect(calls).toBe(2);
    expect(logger.lines.filter((line) => line.includes('Planificateur local en échec'))).toHaveLength(2);
  });
});
