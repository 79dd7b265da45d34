import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { verifyWebhook } from '../../functions/adapters/scheduling/webhook-signature';
import { firmSlotsKey } from '../../functions/data/scheduling/keys';
import type { DispatchMessage } from '../../functions/domain/scheduling/ports';
import { WEBHOOK_QUEUE } from '../../functions/domain/scheduling/scheduling-settings';
import { createDueClaimerHandler } from '../../functions/handlers/scheduling/due-claimer';
import { createWebhookWorkerHandler } from '../../functions/handlers/scheduling/webhook-worker';
import { inProcessClaimers } from '../../functions/runtime/in-process-claimers';
import type { LocalQueues } from '../../lib/local/queue/local-queues';
import { type QueuePoller, startQueuePoller } from '../../lib/local/queue/poller';
import { GLOBAL_SCHEDULING } from '../../shared/constants';
import type { TestApp } from './app';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** Whether the signature verified with the app's secret at the app's clock time. */
  readonly signatureValid: boolean;
  /** When the call's body had arrived (wall clock, ms): the dispatch lag of the fairness test. */
  readonly receivedAt: number;
}

/**
 * How a test receiver answers the n-th call (from 0) on a path: after `delayMs`, and not before
 * `until` has resolved when it is given (a call the test holds open).
 */
export type ReceiverBehaviour = (
  path: string,
  callIndex: number,
) => { status: number; delayMs?: number; headers?: Record<string, string>; until?: Promise<void> };

export interface TestReceiver {
  readonly baseUrl: string;
  readonly calls: ReceivedWebhook[];
  /** The most calls in progress at once so far. */
  readonly maxConcurrent: number;
  /** Connections accepted, calls or not. */
  readonly connections: number;
  callsOn(path: string): ReceivedWebhook[];
  stop(): Promise<void>;
}

/** A real HTTP webhook receiver on 127.0.0.1 that checks signatures and answers as told. */
export async function startTestReceiver(
  app: Pick<TestApp, 'webhookSecret' | 'clock'>,
  behaviour: ReceiverBehaviour = () => ({ status: 200 }),
): Promise<TestReceiver> {
  const calls: ReceivedWebhook[] = [];
  const perPath = new Map<string, number>();
  let inProgress = 0;
  let maxConcurrent = 0;
  let connections = 0;
  const server = createServer((request, response) => {
    inProgress += 1;
    maxConcurrent = Math.max(maxConcurrent, inProgress);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const index = perPath.get(path) ?? 0;
      perPath.set(path, index + 1);
      calls.push({
        path,
        headers: request.headers,
        body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>,
        signatureValid: verifyWebhook(app.webhookSecret, request.headers, raw, { now: app.clock.now() })
          .valid,
        receivedAt: Date.now(),
      });
      const answer = behaviour(path, index);
      setTimeout(async () => {
        await answer.until;
        inProgress -= 1;
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end(JSON.stringify({ ok: answer.status < 300 }));
      }, answer.delayMs ?? 0);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    get maxConcurrent() {
      return maxConcurrent;
    },
    get connections() {
      return connections;
    },
    callsOn: (path) => calls.filter((call) => call.path === path),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Waits until `check` holds, polling; fails with `what` after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Toujours pas: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Messages of a queue by state, as SQS counts them. */
export async function queueDepth(queues: LocalQueues, which: 'main' | 'dead-letter' = 'main') {
  const { Attributes = {} } = await queues.client.send(
    new GetQueueAttributesCommand({
      QueueUrl: which === 'main' ? queues.queueUrl : queues.deadLetterQueueUrl,
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  const visible = Number(Attributes.ApproximateNumberOfMessages ?? 0);
  const inFlight = Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
  const delayed = Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
  return { visible, inFlight, delayed, total: visible + inFlight + delayed };
}

/** Receives (and hides for a minute) every visible message of a queue, bodies parsed. */
export async function receiveAll(queues: LocalQueues, which: 'main' | 'dead-letter' = 'main') {
  const received: DispatchMessage[] = [];
  for (;;) {
    const { Messages = [] } = await queues.client.send(
      new ReceiveMessageCommand({
        QueueUrl: which === 'main' ? queues.queueUrl : queues.deadLetterQueueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        VisibilityTimeout: 60,
      }),
    );
    if (Messages.length === 0) return received;
    received.push(...Messages.map((message) => JSON.parse(message.Body ?? '{}') as DispatchMessage));
  }
}

/**
 * The webhook worker on the local queue as the Lambda event source runs it: the product's
 * concurrency and batches, short polls so a test sees each call soon.
 */
export function startWorkerPoller(
  queues: LocalQueues,
  app: TestApp,
  maxConcurrency: number = GLOBAL_SCHEDULING.maxConcurrentWorkflows,
): QueuePoller {
  return startQueuePoller({
    client: queues.client,
    queueUrl: queues.queueUrl,
    handler: createWebhookWorkerHandler(app),
    maxConcurrency,
    batchSize: WEBHOOK_QUEUE.batchSize,
    waitTimeSeconds: 1,
    logger: app.logger,
  });
}

/**
 * The app with the claimers of a scheduler run in this process, awaited (`inProcessClaimers`), as
 * the minute tick and an admin's run use them: the tick's coordinator and `runScheduler` then run
 * the real claimer handler on the app's table and queue.
 */
export function withClaimers<T extends TestApp>(app: T): T {
  const claimers = inProcessClaimers(app.logger, { wait: true });
  const deps = { ...app, dueClaimers: claimers.claimers };
  claimers.bind(createDueClaimerHandler(deps));
  return deps;
}

/** The firm's call slots held now (a lease taken and not given back). */
export async function heldSlots(app: Pick<TestApp, 'table'>, firm: string): Promise<string[]> {
  const { Item = {} } = await app.table.doc.send(
    new GetCommand({ TableName: app.table.name, Key: firmSlotsKey(firm), ConsistentRead: true }),
  );
  return Object.keys(Item).filter((name) => name.startsWith('slot'));
}
