import { Agent, request } from 'node:http';

import { percentile } from './percentile';

/**
 * Requests started at a steady rate, one every 1/rate s, whatever the replies do: the arrivals of
 * independent users. autocannon's rate starts each of its connections' requests for a second
 * together, at the second's start, so even at 20 requests/s its p99 is that of 10 requests
 * arriving at once (213 ms for the list, against 51-64 ms spread evenly; 2026-11-26). Each
 * latency counts from the time its request was due, so a stall that delays the next sends is
 * counted too.
 */

export interface SteadyArrivalsOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly rate: number;
  readonly seconds: number;
}

export interface SteadyArrivalsFigures {
  readonly rate: number;
  readonly seconds: number;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Replies other than 2xx. */
  readonly non2xx: number;
  /** Requests that got no whole reply: connection errors, replies cut, 30 s without an answer. */
  readonly errors: number;
}

/** How long a request may go without a byte of reply before it counts as an error. */
const REPLY_TIMEOUT_MS = 30_000;

export async function steadyArrivals(options: SteadyArrivalsOptions): Promise<SteadyArrivalsFigures> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  const count = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      let settled = false;
      /** Counts the request once, whichever of its events comes first. */
      const settle = (status: number | null) => {
        if (settled) return;
        settled = true;
        if (status === null) errors += 1;
        else {
          latencies.push(performance.now() - dueAt);
          if (status >= 300) non2xx += 1;
        }
        resolve();
      };
      const outgoing = request(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: options.method,
          headers: options.headers,
          agent,
        },
        (reply) => {
          reply.resume();
          reply.on('end', () => settle(reply.statusCode ?? 0));
          // A reply cut before its end closes without 'end'.
          reply.on('close', () => settle(null));
        },
      );
      // A request left unanswered is counted, never waited for: the run always ends.
      outgoing.setTimeout(REPLY_TIMEOUT_MS, () => outgoing.destroy(new Error('no reply')));
      outgoing.on('error', () => settle(null));
      outgoing.end(options.body);
    });
  const start = performance.now() + 10;
  try {
    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const dueAt = start + (index * 1000) / options.rate;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - performance.now())));
        await send(dueAt);
      }),
    );
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  return {
    rate: options.rate,
    seconds: options.seconds,
    requests: count,
    p50Ms: percentile(latencies, 50),
    p90Ms: percentile(latencies, 90),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? 0,
    non2xx,
    errors,
  };
}
