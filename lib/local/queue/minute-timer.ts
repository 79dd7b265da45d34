import type { Logger } from '../../../functions/domain/core/ports';

export interface MinuteTimer {
  /** Stops the timer and waits for a tick in progress. */
  stop(): Promise<void>;
}

/** The start-up tick is left out when the first minute tick comes less than this after it. */
const STARTUP_TICK_SPACING_MS = 10_000;

/**
 * Plays the minute schedule: a tick at each minute's start and one soon after start unless the
 * minute tick is seconds away (two ticks at once would claim the same runs); never doubled.
 */
export function startMinuteTimer(
  tick: () => Promise<unknown>,
  logger: Logger,
  options: {
    readonly firstTickDelayMs?: number;
    readonly now?: () => number;
    /** What the log says when a tick fails. @default 'Planificateur local en échec' */
    readonly failureMessage?: string;
  } = {},
): MinuteTimer {
  const now = options.now ?? Date.now;
  let stopped = false;
  let current: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const run = () => {
    if (stopped || current) return;
    current = tick()
      .then(
        () => undefined,
        (error: unknown) =>
          logger.error(options.failureMessage ?? 'Planificateur local en échec', {
            errorName: error instanceof Error ? error.name : 'inconnu',
          }),
      )
      .finally(() => {
        current = undefined;
      });
  };
  const scheduleNext = () => {
    if (stopped) return;
    const untilNextMinute = 60_000 - (now() % 60_000);
    timer = setTimeout(() => {
      run();
      scheduleNext();
    }, untilNextMinute);
  };

  const firstTickDelayMs = options.firstTickDelayMs ?? 2_000;
  const untilFirstMinute = 60_000 - (now() % 60_000);
  const first =
    untilFirstMinute - firstTickDelayMs >= STARTUP_TICK_SPACING_MS
      ? setTimeout(run, firstTickDelayMs)
      : undefined;
  scheduleNext();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearTimeout(timer);
      await current;
    },
  };
}
