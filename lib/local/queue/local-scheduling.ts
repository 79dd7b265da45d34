import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateWebhookSecret } from '../../../functions/adapters/scheduling/webhook-signature';
import type { Logger } from '../../../functions/domain/core/ports';
import { WEBHOOK_QUEUE } from '../../../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../../../functions/handlers/scheduling/due-claimer';
import { createScheduledTickHandler } from '../../../functions/handlers/scheduling/scheduled-tick';
import { createWebhookWorkerHandler } from '../../../functions/handlers/scheduling/webhook-worker';
import type { AppDependencies } from '../../../functions/runtime/dependencies';
import { inProcessClaimers } from '../../../functions/runtime/in-process-claimers';
import type { SchedulingPorts } from '../../../functions/runtime/scheduling-ports';
import { webhookSecretOf } from '../../../functions/runtime/scheduling-ports';
import { type DemoReceiver, startDemoReceiver } from './demo-receiver';
import { type LocalQueues, startLocalQueues } from './local-queues';
import { type MinuteTimer, startMinuteTimer } from './minute-timer';
import { type QueuePoller, startQueuePoller } from './poller';

/** Calls in flight at once locally: the global cap of a small stage (one firm still gets 5). */
export const LOCAL_WORKER_CONCURRENCY = 20;

export interface LocalSchedulingOptions {
  /** Where the webhook signing secret is kept between runs (`webhook-secret`, mode 0600). */
  readonly dataDirectory: string;
  /** Whether webhooks may be called on loopback and private addresses (printed at start). */
  readonly allowPrivateWebhooks: boolean;
  /** The demo receiver's port; a free one if it is taken. */
  readonly demoReceiverPort: number;
  readonly logger: Logger;
}

/** What the start-up banner prints about scheduling. */
export interface LocalSchedulingInfo {
  readonly webhookSecret: string;
  readonly allowPrivateWebhooks: boolean;
  readonly demoWebhookUrl: string;
  readonly demoPageUrl: string;
}

export interface LocalScheduling {
  /** The scheduling part of the handlers' dependencies (the site's address is the runtime's). */
  readonly ports: Omit<SchedulingPorts, 'publicApiUrl'>;
  readonly info: LocalSchedulingInfo;
  /** Starts the minute timer (the EventBridge schedule) and the poller (the SQS event source). */
  run(deps: AppDependencies): void;
  /** Stops the timer and the poller (waiting for calls in flight), the demo receiver and fauxqs. */
  stop(): Promise<void>;
}

/** The per-installation signing secret, generated on first start and kept readable by its owner only. */
export function loadOrCreateWebhookSecret(path: string): string {
  if (!existsSync(path)) writeFileSync(path, `${generateWebhookSecret()}\n`, { mode: 0o600 });
  return webhookSecretOf(readFileSync(path, 'utf8'));
}

/**
 * The local scheduling pipeline: fauxqs queues, a poller for the worker, a minute timer for the
 * tick, and a demo webhook receiver.
 */
export async function startLocalScheduling(options: LocalSchedulingOptions): Promise<LocalScheduling> {
  const webhookSecret = loadOrCreateWebhookSecret(join(options.dataDirectory, 'webhook-secret'));
  const queues: LocalQueues = await startLocalQueues();
  let receiver: DemoReceiver;
  try {
    receiver = await startDemoReceiver({ port: options.demoReceiverPort, secret: webhookSecret }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') throw error;
        return startDemoReceiver({ port: 0, secret: webhookSecret });
      },
    );
  } catch (error) {
    await queues.stop();
    throw error;
  }
  let poller: QueuePoller | undefined;
  let timer: MinuteTimer | undefined;
  // The tick's claimers run in this process, started without waiting as Lambda's asynchronous
  // invocations are.
  const claimers = inProcessClaimers(options.logger, { wait: false });

  return {
    ports: {
      webhookQueue: queues.dispatchQueue,
      dueClaimers: claimers.claimers,
      webhookSigningSecret: async () => webhookSecret,
      allowPrivateWebhooks: options.allowPrivateWebhooks,
    },
    info: {
      webhookSecret,
      allowPrivateWebhooks: options.allowPrivateWebhooks,
      demoWebhookUrl: receiver.webhookUrl,
      demoPageUrl: receiver.pageUrl,
    },
    run(deps) {
      if (poller || timer) return;
      poller = startQueuePoller({
        client: queues.client,
        queueUrl: queues.queueUrl,
        handler: createWebhookWorkerHandler(deps),
        maxConcurrency: LOCAL_WORKER_CONCURRENCY,
        batchSize: WEBHOOK_QUEUE.batchSize,
        logger: options.logger,
      });
      claimers.bind(createDueClaimerHandler(deps));
      const tick = createScheduledTickHandler(deps);
      timer = startMinuteTimer(
        () =>
          tick({ source: 'aws.scheduler', 'detail-type': 'Scheduled Event', time: new Date().toISOString() }),
        options.logger,
      );
    },
    async stop() {
      await timer?.stop();
      await poller?.stop();
      await receiver.stop();
      await queues.stop();
    },
  };
}
