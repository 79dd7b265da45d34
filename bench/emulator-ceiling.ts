import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

import { createTable } from '../functions/data/table/table';
import { createTableInput } from '../functions/data/table/table-definition';
import { LOCAL_AWS, startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { processCpuSeconds } from './cpu-time';

/**
 * What DynamoDB Local can serve on this machine, one call type at a time with 10 calls in flight:
 * the ceiling every route's figures run into. A route making k calls of these kinds cannot be
 * served faster than these rates allow, and its latency target needs the emulator well below them.
 */

export interface CallCeiling {
  readonly call: string;
  readonly callsPerSecond: number;
  /** The emulator's (Java's) CPU per call; null without /proc. */
  readonly emulatorCpuMs: number | null;
  /** The SDK's CPU per call in this process (sign, send, parse). */
  readonly clientCpuMs: number;
}

export interface EmulatorCeilings {
  /** 'on disk' as `npm start` keeps it, or 'in memory' as the tests and the scheduler benches. */
  readonly storage: 'on disk' | 'in memory';
  readonly ceilings: readonly CallCeiling[];
}

const TABLE = 'ceiling';
const IN_FLIGHT = 10;
const WARM_UP_MS = 2_000;
const MEASURED_MS = 5_000;
/** Workflow-sized items, as the list reads them. */
const LISTED_ITEMS = 200;

export async function measureEmulatorCeilings(
  storage: EmulatorCeilings['storage'],
): Promise<EmulatorCeilings> {
  const dataDir = storage === 'on disk' ? mkdtempSync(join(tmpdir(), 'bench-ceiling-')) : undefined;
  const dynamo = await startDynamoDbLocal(dataDir ? { dataDir } : {});
  const table = createTable(TABLE, { endpoint: dynamo.endpoint, ...LOCAL_AWS });
  try {
    await table.doc.send(new CreateTableCommand(createTableInput(TABLE)));
    for (let index = 0; index < LISTED_ITEMS; index++) {
      await table.doc.send(new PutCommand({ TableName: TABLE, Item: listedItem(index) }));
    }
    let next = 0;
    const calls: Record<string, () => Promise<unknown>> = {
      GetItem: () =>
        table.doc.send(
          new GetCommand({ TableName: TABLE, Key: listedKey(next++ % LISTED_ITEMS), ConsistentRead: true }),
        ),
      PutItem: () =>
        table.doc.send(
          new PutCommand({
            TableName: TABLE,
            Item: { PK: `PUT#${next++}`, SK: 'PUT', text: 'x'.repeat(100) },
          }),
        ),
      UpdateItem: () =>
        table.doc.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: { PK: `COUNTER#${next++ % 50}`, SK: 'COUNTER' },
            UpdateExpression: 'ADD hits :one',
            ExpressionAttributeValues: { ':one': 1 },
          }),
        ),
      'Query, 50 items': () =>
        table.doc.send(
          new QueryCommand({
            TableName: TABLE,
            IndexName: 'GSI1',
            KeyConditionExpression: 'GSI1PK = :list',
            ExpressionAttributeValues: { ':list': 'LIST' },
            ScanIndexForward: false,
            Limit: 50,
          }),
        ),
      'BatchGetItem, 50 keys': () =>
        table.doc.send(
          new BatchGetCommand({
            RequestItems: { [TABLE]: { Keys: Array.from({ length: 50 }, (_, index) => listedKey(index)) } },
          }),
        ),
    };
    const ceilings: CallCeiling[] = [];
    for (const [call, send] of Object.entries(calls)) {
      await saturate(send, WARM_UP_MS);
      const emulatorBefore = processCpuSeconds(dynamo.pid);
      const clientBefore = process.cpuUsage();
      const { done, seconds } = await saturate(send, MEASURED_MS);
      const emulatorAfter = processCpuSeconds(dynamo.pid);
      const client = process.cpuUsage(clientBefore);
      ceilings.push({
        call,
        callsPerSecond: done / seconds,
        emulatorCpuMs:
          emulatorBefore === null || emulatorAfter === null
            ? null
            : ((emulatorAfter - emulatorBefore) * 1000) / done,
        clientCpuMs: (client.user + client.system) / 1000 / done,
      });
    }
    return { storage, ceilings };
  } finally {
    table.doc.destroy();
    await dynamo.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `IN_FLIGHT` loops sending one call after another for `ms`; how many calls ended. */
async function saturate(send: () => Promise<unknown>, ms: number) {
  const started = Date.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() - started < ms) {
        await send();
        done += 1;
      }
    }),
  );
  return { done, seconds: (Date.now() - started) / 1000 };
}

const listedKey = (index: number) => ({ PK: `WORKFLOW#${index}`, SK: 'WORKFLOW' });

function listedItem(index: number) {
  return {
    ...listedKey(index),
    GSI1PK: 'LIST',
    GSI1SK: `2026-01-01T00:00:00.${String(index).padStart(3, '0')}Z#${index}`,
    name: `Relance dossier client ${index}`,
    description: 'Relance les clients pour les pièces manquantes de leur dossier',
    webhookUrl: 'https://n8n.example.com/webhook/client-reminder',
    lawyerEmail: 'avocat.banc@example.com',
    type: 'client_reminder',
    active: true,
    cronEnabled: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
