/* When a failed webhook call is tried again. */

/** Retry timing: Retry-After and back-off both stop at 15 minutes, the longest SQS message delay. */
export const RETRY_LIMITS = {
  maxRetryAfterSeconds: 15 * 60,
  backoffBaseSeconds: 5,
  backoffCapSeconds: 15 * 60,
} as const;

/**
 * Seconds to wait before attempt `attempt + 1` after attempt `attempt` (1 for the first) failed:
 * exponential back-off with full jitter (a uniform draw between 1 second and the exponential
 * ceiling), never less than the receiver's Retry-After, never more than the cap.
 */
export function backoffSeconds(
  attempt: number,
  retryAfterSeconds?: number,
  random: () => number = Math.random,
): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt must be 1 or more');
  const { backoffBaseSeconds, backoffCapSeconds } = RETRY_LIMITS;
  const ceiling = Math.min(backoffCapSeconds, backoffBaseSeconds * 2 ** Math.min(attempt - 1, 30));
  const jittered = Math.max(1, Math.ceil(random() * ceiling));
  return Math.min(backoffCapSeconds, Math.max(jittered, Math.ceil(retryAfterSeconds ?? 0)));
}
