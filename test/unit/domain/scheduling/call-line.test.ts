import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { CallLine, type CallPlace } from '../../../../functions/domain/scheduling/worker';

/** Lets the event loop turn `ticks` times: work of some length, with no clock involved. */
const turns = async (ticks: number) => {
  for (let tick = 0; tick < ticks; tick += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** What one record does in the property: leaves before calling, or calls (sent after some work). */
const recordPlan = fc.record({
  calls: fc.boolean(),
  preparing: fc.integer({ min: 0, max: 3 }),
  sending: fc.integer({ min: 0, max: 3 }),
  answering: fc.integer({ min: 0, max: 3 }),
});

/** A record as the worker goes through its place, noting each step in `steps`. */
async function walk(
  index: number,
  place: CallPlace,
  plan: { calls: boolean; preparing: number; sending: number; answering: number },
  steps: string[],
) {
  try {
    await place.mayPrepare;
    steps.push(`prepare ${index}`);
    await turns(plan.preparing);
    if (!plan.calls) return;
    await place.mayCall;
    place.calling();
    steps.push(`call ${index}`);
    await turns(plan.sending);
    place.sent();
    await turns(plan.answering);
    steps.push(`answered ${index}`);
    place.called();
    await place.nextSent;
    steps.push(`write ${index}`);
  } finally {
    place.leave();
  }
}

describe('CallLine', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls one record at a time in the records’ order, each preparing during the call before it and writing after the next is sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordPlan, { minLength: 1, maxLength: 7 }), async (plans) => {
        // A wait no call here reaches: only the order of the line is at play.
        const line = new CallLine(60_000);
        const places = plans.map(() => line.place());
        line.close();
        const steps: string[] = [];
        await Promise.all(plans.map((plan, index) => walk(index, places[index] as CallPlace, plan, steps)));

        const at = (step: string) => steps.indexOf(step);
        const called = plans.flatMap((plan, index) => (plan.calls ? [index] : []));
        // In the records' order, and never two at once.
        expect(steps.filter((step) => step.startsWith('call ')).map((step) => Number(step.slice(5)))).toEqual(
          called,
        );
        called.forEach((index, position) => {
          const next = called[position + 1];
          if (next !== undefined) expect(at(`call ${next}`)).toBeGreaterThan(at(`answered ${index}`));
          // Its writes wait for the next record in line to be on its way, or to have left.
          const following = index + 1 < plans.length ? index + 1 : undefined;
          if (following !== undefined && plans[following]?.calls) {
            expect(at(`write ${index}`)).toBeGreaterThan(at(`call ${following}`));
          }
        });
        // A record prepares once the one before it is calling or gone, never before.
        plans.forEach((plan, index) => {
          if (index > 0 && plans[index - 1]?.calls) {
            expect(at(`prepare ${index}`)).toBeGreaterThan(at(`call ${index - 1}`));
          }
          if (plan.calls) expect(at(`write ${index}`)).toBeGreaterThan(-1);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('lets the next record call once the call before it has run the wait, not sooner', async () => {
    vi.useFakeTimers();
    const line = new CallLine(1_000);
    const [first, second] = [line.place(), line.place()] as [CallPlace, CallPlace];
    line.close();
    await first.mayCall;
    first.calling();
    let secondMayCall = false;
    void second.mayCall.then(() => {
      secondMayCall = true;
    });

    await vi.advanceTimersByTimeAsync(999);
    expect(secondMayCall).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(secondMayCall).toBe(true);
  });

  it('lets a record alone in its line go through every step at once', async () => {
    const place = CallLine.alone();
    const steps: string[] = [];
    const walked = (async () => {
      await place.mayPrepare;
      steps.push('prepare');
      await place.mayCall;
      steps.push('call');
      place.calling();
      place.called();
      await place.nextSent;
      steps.push('next sent');
      place.leave();
    })();

    // A few turns of the event loop and no timer: nothing in its way waits.
    await turns(3);

    expect(steps).toEqual(['prepare', 'call', 'next sent']);
    await walked;
  });
});
