import type { DispatchQueue } from '../adapters/dispatch-queue';
import { webhookSigningKey } from '../adapters/webhook-signature';

/** One shard of one minute tick, handed to its claimer. */
export interface ShardClaimRequest {
  readonly shard: number;
  /** The coordinator's time (ISO): the same for every shard and every retry of the tick. */
  readonly tickAt: string;
}

/**
 * The claimers of the minute tick: one asynchronous invocation of the claimer function per shard
 * in AWS, the claimer handler in-process locally and in tests.
 */
export interface DueClaimers {
  /** Starts one claimer per request without waiting for them; says which shards did not start. */
  start(requests: readonly ShardClaimRequest[]): Promise<{ readonly failed: readonly number[] }>;
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
