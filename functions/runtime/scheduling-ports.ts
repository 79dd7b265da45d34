import * as z from 'zod';

import type { DispatchQueue } from '../adapters/scheduling/dispatch-queue';
import { webhookSigningKey } from '../adapters/scheduling/webhook-signature';
import { ShardResult } from '../data/scheduling/scheduler-runs';

/** One due-index shard of one scheduler run, handed to its claimer. */
export interface ShardClaimRequest {
  readonly shard: number;
  /**
   * The run's time (ISO): the coordinator's, the same for every shard and every retry of the run
   * (named for the minute tick, the first run that fanned out).
   */
  readonly tickAt: string;
  /** An admin's run ('Déclencher Maintenant', forced or not); absent for the minute tick. */
  readonly trigger?: 'manual' | 'manual_force';
}

/** What a claimer answers: its shard, and what it did there. */
export const ShardClaimAnswer = ShardResult.extend({ shard: z.number().int() });
export type ShardClaimAnswer = z.infer<typeof ShardClaimAnswer>;

/**
 * The claimers of a scheduler run: one invocation of the claimer function per shard in AWS, the
 * claimer handler in-process locally and in tests.
 */
export interface DueClaimers {
  /**
   * The minute tick: starts one claimer per request without waiting for them (asynchronous
   * invocations); says which shards did not start.
   */
  start(requests: readonly ShardClaimRequest[]): Promise<{ readonly failed: readonly number[] }>;
  /**
   * An admin's run: runs the claimer of one shard and waits for its answer (a synchronous
   * invocation); null when the claimer failed. The coordinator runs every shard's at once.
   */
  claim(request: ShardClaimRequest): Promise<ShardClaimAnswer | null>;
}

/** What the scheduling handlers need from the world beyond the table, clock and logger. */
export interface SchedulingPorts {
  /** The webhook queue and its dead-letter queue. */
  readonly webhookQueue: DispatchQueue;
  /** The minute tick's claimers (only the coordinator starts them). */
  readonly dueClaimers: DueClaimers;
  /** The per-deployment `whsec_…` secret every webhook call is signed with. */
  readonly webhookSigningSecret: () => Promise<string>;
  /**
   * Whether webhooks may be called on loopback and private addresses. Never in AWS; the local
   * runtime allows it by an explicit setting printed at start.
   */
  readonly allowPrivateWebhooks: boolean;
}

/** A `whsec_…` secret from the stored value: the full form, or its base64 part alone. */
export function webhookSecretOf(stored: string): string {
  const secret = stored.trim().startsWith('whsec_') ? stored.trim() : `whsec_${stored.trim()}`;
  webhookSigningKey(secret); // a secret that cannot sign is a deployment error: fail now, loudly
  return secret;
}
