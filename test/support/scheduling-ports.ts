import { generateWebhookSecret } from '../../functions/adapters/scheduling/webhook-signature';
import type { DispatchQueue } from '../../functions/domain/scheduling/ports';
import type { SchedulingPorts } from '../../functions/runtime/scheduling-ports';

/** A queue for the tests that never use one: any use is a test bug, reported at once. */
const unconfiguredQueue: DispatchQueue = {
  sendBatch: () => Promise.reject(new Error('File des webhooks non configurée dans ce test')),
  changeVisibility: () => Promise.reject(new Error('File des webhooks non configurée dans ce test')),
  deadLetterCount: () => Promise.reject(new Error('File des webhooks non configurée dans ce test')),
  redriveDeadLetters: () => Promise.reject(new Error('File des webhooks non configurée dans ce test')),
};

/**
 * The scheduling ports of a test app: a fresh signing secret, private addresses allowed (test
 * receivers listen on 127.0.0.1) and no queue; the scheduling tests put a fauxqs queue in.
 */
export function testSchedulingPorts(): SchedulingPorts & { readonly webhookSecret: string } {
  const webhookSecret = generateWebhookSecret();
  return {
    webhookQueue: unconfiguredQueue,
    dueClaimers: {
      start: () => Promise.reject(new Error('Lots du planificateur non configurés dans ce test')),
      claim: () => Promise.reject(new Error('Lots du planificateur non configurés dans ce test')),
    },
    webhookSigningSecret: async () => webhookSecret,
    allowPrivateWebhooks: true,
    // Nothing listens there: the tests that post reports set the address of their own API.
    publicApiUrl: () => 'http://localhost:3000',
    webhookSecret,
  };
}
