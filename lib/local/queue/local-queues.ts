import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';

import { createSqsDispatchQueue } from '../../../functions/adapters/scheduling/dispatch-queue';
import type { DispatchQueue } from '../../../functions/domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../../functions/domain/scheduling/scheduling-settings';
import { LOCAL_AWS } from '../dynamodb-local';

/** The webhook queue and its dead-letter queue, in fauxqs, with an SQS client pointed at them. */
export interface LocalQueues {
  readonly endpoint: string;
  readonly queueUrl: string;
  readonly deadLetterQueueUrl: string;
  readonly client: SQSClient;
  /** The queue port of the handlers, on these queues. */
  readonly dispatchQueue: DispatchQueue;
  stop(): Promise<void>;
}

export interface LocalQueueOptions {
  /** Default: the deployed queue's (`WEBHOOK_QUEUE.visibilityTimeoutSeconds`). */
  readonly visibilityTimeoutSeconds?: number;
  /** Default: the deployed queue's (`WEBHOOK_QUEUE.maxReceiveCount`). */
  readonly maxReceiveCount?: number;
}

/**
 * Starts fauxqs in-process (in memory, on a free port of the loopback interface only) with the same
 * two queues as the deployed stack: the webhook queue, whose messages move to the dead-letter queue
 * after `maxReceiveCount` deliveries, and the dead-letter queue.
 */
export async function startLocalQueues(options: LocalQueueOptions = {}): Promise<LocalQueues> {
  const app = buildApp({ logger: false, defaultRegion: LOCAL_AWS.region });
  const endpoint = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new SQSClient({ ...LOCAL_AWS, endpoint });
  try {
    const { QueueUrl: deadLetterQueueUrl = '' } = await client.send(
      new CreateQueueCommand({
        QueueName: 'webhook-dead-letters',
        Attributes: { MessageRetentionPeriod: String(WEBHOOK_QUEUE.deadLetterRetentionSeconds) },
      }),
    );
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: deadLetterQueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const { QueueUrl: queueUrl = '' } = await client.send(
      new CreateQueueCommand({
        QueueName: 'webhook-calls',
        Attributes: {
          VisibilityTimeout: String(
            options.visibilityTimeoutSeconds ?? WEBHOOK_QUEUE.visibilityTimeoutSeconds,
          ),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: Attributes?.QueueArn,
            maxReceiveCount: String(options.maxReceiveCount ?? WEBHOOK_QUEUE.maxReceiveCount),
          }),
        },
      }),
    );
    return {
      endpoint,
      queueUrl,
      deadLetterQueueUrl,
      client,
      dispatchQueue: createSqsDispatchQueue({
        client,
        queueUrl: () => queueUrl,
        deadLetterQueueUrl: () => deadLetterQueueUrl,
      }),
      stop: async () => {
        client.destroy();
        await app.close();
      },
    };
  } catch (error) {
    client.destroy();
    await app.close();
    throw error;
  }
}
