import { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsDispatchQueue, type DispatchQueue } from '../adapters/dispatch-queue';
import { webhookSigningKey } from '../adapters/webhook-signature';
import { cachedSecret, type SecretReading } from './cached-secret';
import { lazyEnv } from './environment';
import { tracer } from './powertools';

/** What the scheduling handlers need from the world beyond the table, clock and logger. */
export interface SchedulingPorts {
  /** The webhook queue and its dead-letter queue. */
  readonly webhookQueue: DispatchQueue;
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

/**
 * The AWS side: SQS queues from WEBHOOK_QUEUE_URL and WEBHOOK_DLQ_URL, the signing secret from the
 * Secrets Manager secret WEBHOOK_SECRET_ARN (its value `whsec_…`, or only the base64 part as a
 * generated secret holds it). Everything is read on first use; the secret at most every 5 minutes.
 */
export function awsSchedulingPorts(reading: SecretReading): SchedulingPorts {
  const webhookSigningSecret = cachedSecret(
    reading,
    'de signature des webhooks',
    lazyEnv('WEBHOOK_SECRET_ARN'),
    webhookSecretOf,
  );
  return {
    webhookQueue: createSqsDispatchQueue({
      client: tracer.captureAWSv3Client(new SQSClient({})),
      queueUrl: lazyEnv('WEBHOOK_QUEUE_URL'),
      deadLetterQueueUrl: lazyEnv('WEBHOOK_DLQ_URL'),
    }),
    webhookSigningSecret,
    allowPrivateWebhooks: false,
  };
}
