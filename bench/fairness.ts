import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WEBHOOK_QUEUE, WEBHOOK_TIMEOUT_MS } from '../functions/domain/scheduling/scheduling-settings';
import { createWebhookWorkerHandler } from '../functions/handlers/scheduling/webhook-worker';
import { schedulerServiceOf } from '../functions/runtime/services/scheduling';
import { startLocalQueues } from '../lib/local/queue/local-queues';
import { startQueuePoller } from '../lib/local/queue/poller';
import { percentile } from './percentile';
import { batchWrite, benchDependencies, benchTable, benchWorkflow, dropTable, itemsOf } from './scheduler';

/** The figure, the fast firms' dispatch lag at p99, is held to this. */
export const FAIRNESS_LAG_P99_TARGET_MS = 5_000;

export interface FairnessFigures {
  readonly slowRuns: number;
  readonly fastFirms: number;
  readonly workers: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * Fair delivery on the real clock: fauxqs, the poller playing the worker's event source, DynamoDB
 * Local for the firm slots, a real HTTP receiver. One firm's n8n never answers before the time-out;
 * the other firms answer in 200 ms. Measured: from the queueing of every run to the start of each
 * fast firm's call.
 */
export async function runFairnessBench(options: {
  readonly endpoint: string;
  readonly slowRuns: number;
  readonly fastFirms: number;
  readonly workers: number;
}): Promise<FairnessFigures> {
  const table = await benchTable(options.endpoint);
  const queues = await startLocalQueues({ visibilityTimeoutSeconds: 60 });
  const fastCalls: number[] = [];
  const receiver = createServer((request, response) => {
    const slow = request.url?.startsWith('/slow/') === true;
    if (!slow) fastCalls.push(Date.now());
    request.resume();
    setTimeout(() => response.writeHead(200).end('{}'), slow ? WEBHOOK_TIMEOUT_MS + 2_000 : 200).unref();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const deps = benchDependencies(table, queues.dispatchQueue);
  try {
    const slowFirm = 'cabinet.lent@example.com';
    const records = [
      ...Array.from({ length: options.slowRuns }, (_, index) =>
        benchWorkflow({ webhookUrl: `${base}/slow/${index}`, lawyerEmail: slowFirm }),
      ),
      ...Array.from({ length: options.fastFirms }, (_, index) =>
        benchWorkflow({ webhookUrl: `${base}/fast/${index}` }),
      ),
    ];
    await batchWrite(table, records.flatMap(itemsOf));
    await schedulerServiceOf({ table, queue: deps.webhookQueue, clock: deps.clock, logger: deps.logger }).run(
      'schedule',
    );
    const queuedAt = Date.now();
    const worker = createWebhookWorkerHandler(deps);
    const poller = startQueuePoller({
      client: queues.client,
      queueUrl: queues.queueUrl,
      handler: worker,
      maxConcurrency: options.workers,
      batchSize: WEBHOOK_QUEUE.batchSize,
      waitTimeSeconds: 1,
      logger: deps.logger,
    });
    const deadline = Date.now() + 5 * 60_000;
    while (fastCalls.length < options.fastFirms) {
      if (Date.now() > deadline) throw new Error('Délai du banc dépassé');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await poller.stop();
    const lags = fastCalls.map((at) => at - queuedAt).sort((a, b) => a - b);
    return {
      slowRuns: options.slowRuns,
      fastFirms: options.fastFirms,
      workers: options.workers,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
    };
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await queues.stop();
    await dropTable(table);
  }
}
