import { webhookSigningKey } from '../adapters/scheduling/webhook-signature';
import type { DispatchQueue, DueClaimers } from '../domain/scheduling/ports';

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
  /**
   * The site's public origin (`https://…`), where a run's completion report is posted: each
   * webhook body carries its link there. Given with the signing secret (`webhookSigning`).
   */
  readonly publicApiUrl: () => string;
}

/** A `whsec_…` secret from the stored value: the full form, or its base64 part alone. */
export function webhookSecretOf(stored: string): string {
  const secret = stored.trim().startsWith('whsec_') ? stored.trim() : `whsec_${stored.trim()}`;
  webhookSigningKey(secret); // a secret that cannot sign is a deployment error: fail now, loudly
  return secret;
}
